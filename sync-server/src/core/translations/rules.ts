import { forbidden, notFound } from '@quire/shared/domainErrors';
import type { OrgAccess } from '../access/callerAccess';
import { TRANSLATION_WRITE_ROLE, mayEditTranslations } from '../policies/translations';
import type { Queryable } from '../../store/db';
import { getSpace } from '../../store/spaces';
import * as store from '../../store/translations';
import type { TranslationRow } from '../../store/translations';

/*
 * What the translation operations share: a translation whose source space the caller cannot
 * see is unknown to them (404), as the space is.
 */

export function requireWriter(access: OrgAccess) {
  if (!mayEditTranslations(access)) throw forbidden(`This needs the ${TRANSLATION_WRITE_ROLE} role in the organization.`);
}

/** Whether the caller sees the source space: a translation shows its content's existence. */
export async function seesSource(db: Queryable, access: OrgAccess, spaceId: string): Promise<boolean> {
  const space = await getSpace(db, spaceId);
  return !!space && space.org_id === access.orgId && !!access.roleOn(space);
}

/** A translation the caller sees (404 otherwise); to change it, they need the write role (403). */
export async function requireTranslation(db: Queryable, access: OrgAccess, id: string, write: boolean): Promise<TranslationRow> {
  const t = await store.getTranslation(db, access.orgId, id);
  if (!t || !(await seesSource(db, access, t.source_space_id))) throw notFound('translation');
  if (write) requireWriter(access);
  return t;
}

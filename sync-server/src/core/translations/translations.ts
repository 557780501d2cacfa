import { forbidden, notFound } from '@quire/shared/domainErrors';
import type { CreateTranslationBody, UpdateTranslationBody } from '@quire/shared/schemas/translation';
import type { z } from 'zod';
import type { OrgAccess } from '../access/callerAccess';
import { visibleSpaceIds } from '../spaces/visible';
import type { Deps } from '../platform/deps';
import { scheduleTranslationRun } from './run';
import type { Db, Queryable } from '../../store/db';
import type { Page, PageRequest } from '../../store/paginate';
import { getSpace } from '../../store/spaces';
import * as store from '../../store/translations';
import type { TranslationRow } from '../../store/translations';
import { ORGANIZATION_ROLES, mayOrganization } from '../policies/organizations';

/**
 * The translations of an organization, as its members manage them. `access` is the caller's,
 * already checked to be a member; a translation whose source space they cannot see is
 * unknown to them (404), as the space is.
 */

/** Creating and running translations makes spaces: the organization's create role. */
export const TRANSLATION_WRITE_ROLE = ORGANIZATION_ROLES.translate;

export const mayEditTranslations = (access: OrgAccess) => mayOrganization(access, 'translate');

function requireWriter(access: OrgAccess) {
  if (!mayEditTranslations(access)) throw forbidden(`This needs the ${TRANSLATION_WRITE_ROLE} role in the organization.`);
}

/** Whether the caller sees the source space: a translation shows its content's existence. */
async function seesSource(db: Queryable, access: OrgAccess, spaceId: string): Promise<boolean> {
  const space = await getSpace(db, spaceId);
  return !!space && space.org_id === access.orgId && !!access.roleOn(space);
}

/** A translation the caller sees (404 otherwise); to change it, they need the write role (403). */
async function requireTranslation(db: Queryable, access: OrgAccess, id: string, write: boolean): Promise<TranslationRow> {
  const t = await store.getTranslation(db, access.orgId, id);
  if (!t || !(await seesSource(db, access, t.source_space_id))) throw notFound('translation');
  if (write) requireWriter(access);
  return t;
}

/** The translations whose source the caller sees (an admin sees every space). */
export async function listTranslations(db: Db, access: OrgAccess, page: PageRequest): Promise<Page<TranslationRow>> {
  const visible = access.isAdmin ? undefined : await visibleSpaceIds(db, access, { orgId: access.orgId });
  return store.listTranslations(db, access.orgId, visible, page);
}

/** A new translation of a space the caller sees; the caller holds the write role. */
export async function createTranslation(db: Db, access: OrgAccess, b: CreateTranslationBody): Promise<TranslationRow> {
  if (!(await seesSource(db, access, b.source.space))) throw notFound('space');
  return store.insertTranslation(db, access.orgId, {
    sourceSpaceId: b.source.space,
    sourceLanguage: b.source.language ?? null,
    language: b.language,
    instructions: b.instructions ?? null,
    schedule: b.schedule,
  });
}

export function getTranslation(db: Db, access: OrgAccess, id: string): Promise<TranslationRow> {
  return requireTranslation(db, access, id, false);
}

export async function updateTranslation(
  db: Db,
  access: OrgAccess,
  id: string,
  b: z.output<typeof UpdateTranslationBody>,
): Promise<TranslationRow> {
  const t = await requireTranslation(db, access, id, true);
  if (b.instructions) await store.setInstructions(db, t.id, b.instructions);
  if (b.schedule) await store.setSchedule(db, t.id, b.schedule);
  return (await store.getTranslation(db, access.orgId, t.id)) as TranslationRow;
}

/** Deletes a translation; one the caller does not see (or that is gone) changes nothing. */
export async function deleteTranslation(db: Db, access: OrgAccess, id: string): Promise<void> {
  const t = await store.getTranslation(db, access.orgId, id);
  if (!t || !(await seesSource(db, access, t.source_space_id))) return;
  requireWriter(access);
  await store.deleteTranslation(db, access.orgId, t.id);
}

/** Asks for a run now; the run itself happens in the background. */
export async function runTranslationNow(deps: Pick<Deps, 'db' | 'log' | 'config'>, access: OrgAccess, id: string): Promise<void> {
  const t = await requireTranslation(deps.db, access, id, true);
  await store.requestRun(deps.db, t.id);
  void scheduleTranslationRun(deps, t.id);
}

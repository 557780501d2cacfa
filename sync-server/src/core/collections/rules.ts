import { forbidden, notFound } from '@quire/shared/domainErrors';
import type { OrgAccess } from '../access/callerAccess';
import { mayCollection } from '../policies/collections';
import { mayOrganization } from '../policies/organizations';
import { getCollection } from '../../store/collections';
import type { Db } from '../../store/db';
import type { OrgRow } from '../../store/organizations';

/** Creating in a parent collection takes the create role on it; at the top level, in the organization. */
export async function requireCreateIn(db: Db, org: OrgRow, access: OrgAccess, parentId: string | undefined): Promise<void> {
  if (parentId) {
    const parent = await getCollection(db, parentId);
    if (!parent || parent.org_id !== org.id || !access.roleOn(parent)) throw notFound('collection');
    if (!mayCollection(access.roleOn(parent), 'create')) throw forbidden('This needs the create role on the collection.');
  } else if (!mayOrganization(access, 'createContent')) {
    throw forbidden('This needs the create role in the organization.');
  }
}

import { keyBetween, type MergeRules, type Role } from '@quire/shared';
import { badRequest, forbidden, notFound } from '@quire/shared/domainErrors';
import type { OrgAccess } from '../access/callerAccess';
import { IN_COLLECTION } from '../organizations/placement';
import { runSpaceCopySteps } from './copySteps';
import { lastPosition } from '../../store/tree';
import type { Db, Queryable } from '../../store/db';
import { copyGrants, deleteGrantsOn } from '../../store/grants';
import { membersAmong } from '../../store/members';
import * as spaces from '../../store/spaces';
import { mayCollection } from '../policies/collections';
import { mayOrganization } from '../policies/organizations';
import { maySpace } from '../policies/spaces';

/**
 * Changes a space's settings for a caller who holds `role` on it: a locked space takes an
 * admin, `in-collection` is only for a space in a collection, and merge rules may name
 * only the organization's members. Every check runs before anything is written.
 */
export async function updateSpaceSettings(
  db: Db,
  space: spaces.SpaceRow,
  role: Role | null,
  fields: Record<string, unknown> & { visibility?: string; mergeRules?: MergeRules },
): Promise<void> {
  if (!maySpace(role, 'updateDetails', space)) throw forbidden('The space is locked: only an admin can change it.');
  if (fields.visibility === IN_COLLECTION && !space.parent_id) {
    throw badRequest('Invalid body field "visibility": "in-collection" is only for spaces in a collection.');
  }
  await requireMergeRuleMembers(db, space.org_id, fields.mergeRules);
  await spaces.updateSpace(db, space.id, fields);
}

/** Merge rules name users: each must be a member of the organization (404 when one is not). */
export async function requireMergeRuleMembers(db: Queryable, orgId: string, rules: MergeRules | undefined): Promise<void> {
  if (rules?.type !== 'rules') return;
  const ids = [...new Set(rules.rules.flatMap((r) => r.users))];
  if (!ids.length) return;
  const found = await membersAmong(db, orgId, ids);
  if (found.length < ids.length) throw notFound('member');
}

/**
 * Copies a space beside the original (its content, settings and grants), for a caller who
 * may create there; returns the copy's id.
 */
export async function duplicateSpace(db: Db, space: spaces.SpaceRow, access: OrgAccess): Promise<string> {
  const parent = space.parent_id ? access.collection(space.parent_id) : undefined;
  const canCreate = parent ? mayCollection(access.roleOn(parent), 'create') : mayOrganization(access, 'createContent');
  if (!canCreate) throw forbidden('This needs the create role where the copy goes.');
  return db.transaction(async (tx) => {
    const copy = await spaces.createSpace(tx, space.org_id, {
      title: `${space.title} (copy)`.slice(0, 256),
      emoji: space.emoji,
      parentId: space.parent_id,
      language: space.language,
    });
    await spaces.copySpaceSettings(tx, copy.id, space);
    await copyGrants(tx, space.id, copy.id);
    await runSpaceCopySteps(tx, space.id, copy.id);
    return copy.id;
  });
}

/**
 * Moves a space to the root of another organization, where the caller needs the create
 * role; its grants stay behind. Every check runs first: a refused transfer changes nothing.
 */
export async function transferSpace(db: Db, space: spaces.SpaceRow, targetOrgId: string, targetAccess: OrgAccess): Promise<void> {
  if (!targetAccess.isMember) throw notFound('organization');
  if (targetOrgId === space.org_id)
    throw badRequest('The transfer would not result in any update: the space is already in this organization.');
  if (!mayOrganization(targetAccess, 'createContent')) throw forbidden('This needs the create role in the target organization.');
  if (space.visibility === IN_COLLECTION) {
    // It lands at the root of the target, where there is no collection to take its audience from.
    throw badRequest('The space cannot be moved: it is visible "in-collection"; change its visibility first.');
  }
  await db.transaction(async (tx) => {
    const position = keyBetween(await lastPosition(tx, targetOrgId, null), null);
    await deleteGrantsOn(tx, space.id);
    await spaces.moveSpaceToOrg(tx, space.id, targetOrgId, position);
  });
}

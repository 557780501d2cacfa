import type { OpenAPIHono } from '@hono/zod-openapi';
import { sameSecret } from '../../sites/gate';
import { keyBetween } from '@quire/shared';
import type { Context } from 'hono';
import { IN_COLLECTION, moveItem } from '../../core/placement';
import { atLeast } from '../../core/roles';
import { runSpaceCopySteps } from '../../core/spaceCopy';
import { copyGrants } from '../../store/grants';
import { lastPosition } from '../../store/collections';
import { one } from '../../store/db';
import { spaceCounts } from '../../store/spaceCounts';
import * as spaces from '../../store/spaces';
import { badRequest, forbidden, notFound } from '../errors';
import type { AppEnv } from '../env';
import { requireMergeRuleMembers, requireSpace } from '../guards';
import { presentSpace } from '../presenters/space';
import { baseUrl } from '../urls';
import * as r from './routes';
import { OrgAccess } from '../../core/access';

async function respond(c: Context<AppEnv>, spaceId: string, access: OrgAccess) {
  const space = await spaces.getSpace(c.get('deps').db, spaceId, { includeDeleted: true });
  if (!space) throw notFound('space');
  return present(c, space, access);
}

/** A space row as the caller sees it, with its counters. */
async function present(c: Context<AppEnv>, space: spaces.SpaceRow, access: OrgAccess) {
  const counts = await spaceCounts(c.get('deps').db, [space.id]);
  return presentSpace(space, access, baseUrl(c), counts.get(space.id) as never);
}

/** Fields any editor may change (`icon` can only be cleared); the rest shape access and workflow and take an admin. */
const EDITOR_FIELDS = new Set(['title', 'emoji', 'icon', 'language']);

export function registerSpaces(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.getSpace, async (c) => {
    const { db } = c.get('deps');
    const { spaceId } = c.req.valid('param');
    const { shareKey } = c.req.valid('query');
    const space = await spaces.getSpace(db, spaceId);
    if (!space) throw notFound('space');
    const access = await c.get('access').org(space.org_id);
    if (!access.roleOn(space)) {
      // A share-link space opens for anyone who holds its key, read-only.
      if (!(shareKey && space.visibility === 'share-link' && sameSecret(shareKey, space.share_key))) throw notFound('space');
      const readOnly = new OrgAccess(space.org_id, c.get('caller').user.id, undefined, [], new Map());
      const shown = presentSpace(space, readOnly, baseUrl(c), (await spaceCounts(db, [space.id])).get(space.id) as never);
      shown.permissions.view = true;
      shown.permissions.access = true;
      return c.json(shown, 200);
    }
    return c.json(await present(c, space, access), 200);
  });

  app.openapi(r.deleteSpace, async (c) => {
    const { db } = c.get('deps');
    const { spaceId } = c.req.valid('param');
    const space = await spaces.getSpace(db, spaceId);
    if (!space || !(await c.get('access').org(space.org_id)).roleOn(space)) return c.body(null, 204);
    await requireSpace(c, spaceId, 'admin');
    await spaces.softDeleteSpace(db, spaceId);
    return c.body(null, 204);
  });

  app.openapi(r.updateSpace, async (c) => {
    const { db } = c.get('deps');
    const b = c.req.valid('json');
    const adminOnly = Object.keys(b).some((k) => !EDITOR_FIELDS.has(k));
    const { space, access, role } = await requireSpace(c, c.req.valid('param').spaceId, adminOnly ? 'admin' : 'edit');
    if (space.edit_mode === 'locked' && !atLeast(role, 'admin')) throw forbidden('The space is locked: only an admin can change it.');
    if (b.visibility === IN_COLLECTION && !space.parent_id) {
      throw badRequest('Invalid body field "visibility": "in-collection" is only for spaces in a collection.');
    }
    await requireMergeRuleMembers(c, space.org_id, b.mergeRules);
    await spaces.updateSpace(db, space.id, b);
    c.get('access').reset(space.org_id);
    return c.json(await respond(c, space.id, await c.get('access').org(space.org_id)), 200);
  });

  app.openapi(r.duplicateSpace, async (c) => {
    const { db } = c.get('deps');
    const { space, access } = await requireSpace(c, c.req.valid('param').spaceId, 'read');
    const parent = space.parent_id ? access.collection(space.parent_id) : undefined;
    const canCreate = parent ? access.can(parent, 'create') : atLeast(access.orgRole, 'create');
    if (!canCreate) throw forbidden('This needs the create role where the copy goes.');
    const copyId = await db.transaction(async (tx) => {
      const copy = await spaces.createSpace(tx, space.org_id, {
        title: `${space.title} (copy)`.slice(0, 256),
        emoji: space.emoji,
        parentId: space.parent_id,
        language: space.language,
      });
      await tx.query('UPDATE spaces SET visibility = $2, default_level = $3, merge_rules = $4, edit_mode = $5 WHERE id = $1', [
        copy.id,
        space.visibility,
        space.default_level,
        JSON.stringify(space.merge_rules),
        space.edit_mode,
      ]);
      await copyGrants(tx, space.id, copy.id);
      await runSpaceCopySteps(tx, space.id, copy.id);
      return copy.id;
    });
    // The copy carries the original's grants, the caller's included.
    c.get('access').reset(space.org_id);
    return c.json(await respond(c, copyId, await c.get('access').org(space.org_id)), 200);
  });

  app.openapi(r.restoreSpace, async (c) => {
    const { db } = c.get('deps');
    const { space, access } = await requireSpace(c, c.req.valid('param').spaceId, 'admin', { includeDeleted: true });
    if (space.deleted_at) await spaces.restoreSpace(db, space.id);
    return c.json(await respond(c, space.id, access), 200);
  });

  app.openapi(r.moveSpace, async (c) => {
    const { db } = c.get('deps');
    const { space, access } = await requireSpace(c, c.req.valid('param').spaceId, 'admin');
    await db.transaction((tx) => moveItem(tx, access, 'space', space, c.req.valid('json')));
    return c.json(await respond(c, space.id, access), 200);
  });

  app.openapi(r.transferSpace, async (c) => {
    const { db } = c.get('deps');
    const { space } = await requireSpace(c, c.req.valid('param').spaceId, 'admin');
    const target = c.req.valid('json').organization;
    const targetAccess = await c.get('access').org(target);
    if (!targetAccess.isMember) throw notFound('organization');
    if (target === space.org_id)
      throw badRequest('The transfer would not result in any update: the space is already in this organization.');
    if (!atLeast(targetAccess.orgRole, 'create')) throw forbidden('This needs the create role in the target organization.');
    if (space.visibility === IN_COLLECTION) {
      // It lands at the root of the target, where there is no collection to take its audience from.
      throw badRequest('The space cannot be moved: it is visible "in-collection"; change its visibility first.');
    }
    await db.transaction(async (tx) => {
      const position = keyBetween(await lastPosition(tx, target, null), null);
      await tx.query('DELETE FROM grants WHERE resource_id = $1', [space.id]);
      await one(tx, 'UPDATE spaces SET org_id = $2, parent_id = NULL, position = $3, updated_at = now() WHERE id = $1 RETURNING id', [
        space.id,
        target,
        position,
      ]);
    });
    // Grants were dropped on the way: the caller's standing in the target is read afresh.
    c.get('access').reset();
    return c.json(await respond(c, space.id, await c.get('access').org(target)), 200);
  });
}

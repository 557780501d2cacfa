import type { OpenAPIHono } from '@hono/zod-openapi';
import { sameSecret } from '../../sites/gate';
import type { Context } from 'hono';
import { spaceCountsOf, spaceRow } from '../../core/hotRows';
import * as spaces from '../../store/spaces';
import { notFound } from '@quire/shared/apiErrors';
import { moveItem } from '../../core/placement';
import { duplicateSpace, roleToUpdateSpace, transferSpace, updateSpaceSettings } from '../../core/spaces';
import type { AppEnv } from '../env';
import { requireSpace } from '../guards';
import { presentSpace } from '../presenters/space';
import { baseUrl } from '../urls';
import * as r from './routes';
import { cacheable } from '../responseCache';
import { tags } from '../../core/readModel';
import { OrgAccess } from '../../core/access';

async function respond(c: Context<AppEnv>, spaceId: string, access: OrgAccess) {
  const space = await spaces.getSpace(c.get('deps').db, spaceId, { includeDeleted: true });
  if (!space) throw notFound('space');
  return present(c, space, access);
}

/** A space row as the caller sees it, with its counters. */
async function present(c: Context<AppEnv>, space: spaces.SpaceRow, access: OrgAccess) {
  return presentSpace(space, access, baseUrl(c), await spaceCountsOf(c.get('deps').db, space.id));
}

export function registerSpaces(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.getSpace, async (c) => {
    const { db } = c.get('deps');
    const { spaceId } = c.req.valid('param');
    const { shareKey } = c.req.valid('query');
    const space = await spaceRow(db, spaceId);
    if (!space) throw notFound('space');
    const access = await c.get('access').org(space.org_id);
    if (!access.roleOn(space)) {
      // A share-link space opens for anyone who holds its key, read-only.
      if (!(shareKey && space.visibility === 'share-link' && sameSecret(shareKey, space.share_key))) throw notFound('space');
      const readOnly = new OrgAccess(space.org_id, c.get('caller').user.id, undefined, [], new Map());
      const shown = presentSpace(space, readOnly, baseUrl(c), await spaceCountsOf(db, space.id));
      shown.permissions.view = true;
      shown.permissions.access = true;
      return c.json(shown, 200);
    }
    cacheable(c, [tags.space(space.id), tags.access(space.org_id)]);
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
    const fields = c.req.valid('json');
    const { space, role } = await requireSpace(c, c.req.valid('param').spaceId, roleToUpdateSpace(fields));
    await updateSpaceSettings(c.get('deps').db, space, role, fields);
    c.get('access').reset(space.org_id);
    return c.json(await respond(c, space.id, await c.get('access').org(space.org_id)), 200);
  });

  app.openapi(r.duplicateSpace, async (c) => {
    const { space, access } = await requireSpace(c, c.req.valid('param').spaceId, 'read');
    const copyId = await duplicateSpace(c.get('deps').db, space, access);
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
    const { space } = await requireSpace(c, c.req.valid('param').spaceId, 'admin');
    const target = c.req.valid('json').organization;
    await transferSpace(c.get('deps').db, space, target, await c.get('access').org(target));
    // Grants were dropped on the way: the caller's standing in the target is read afresh.
    c.get('access').reset();
    return c.json(await respond(c, space.id, await c.get('access').org(target)), 200);
  });
}

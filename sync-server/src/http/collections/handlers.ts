import type { OpenAPIHono } from '@hono/zod-openapi';
import { keyBetween } from '@quire/shared';
import { moveItem } from '../../core/placement';
import { atLeast } from '../../core/roles';
import { collectionSubtree, getCollection, lastPosition, updateCollection } from '../../store/collections';
import { listSpaces } from '../../store/spaces';
import { badRequest, forbidden, notFound } from '@quire/shared/apiErrors';
import type { AppEnv } from '../env';
import { requireCollection } from '../guards';
import { presentSpaceList } from '../listing';
import { presentCollection } from '../presenters/collection';
import { baseUrl } from '../urls';
import * as r from './routes';

export function registerCollections(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.getCollection, async (c) => {
    const { collection, access } = await requireCollection(c, c.req.valid('param').collectionId);
    return c.json(presentCollection(collection, access, baseUrl(c)), 200);
  });

  app.openapi(r.deleteCollection, async (c) => {
    const { db } = c.get('deps');
    const { collectionId } = c.req.valid('param');
    const existing = await getCollection(db, collectionId);
    if (!existing || !(await c.get('access').org(existing.org_id)).roleOn(existing)) return c.body(null, 204);
    await requireCollection(c, collectionId, 'admin');
    await db.transaction(async (tx) => {
      const ids = await collectionSubtree(tx, collectionId);
      // Spaces inside go to the trash (restorable for the retention period) rather than vanish;
      // restored, they land at the root, where "in-collection" has no audience to mean.
      await tx.query(
        `UPDATE spaces SET deleted_at = COALESCE(deleted_at, now()), parent_id = NULL,
           visibility = CASE WHEN visibility = 'in-collection' THEN 'private' ELSE visibility END
         WHERE parent_id = ANY($1)`,
        [ids],
      );
      await tx.query('DELETE FROM grants WHERE resource_id = ANY($1)', [ids]);
      await tx.query('DELETE FROM collections WHERE id = $1', [collectionId]);
    });
    return c.body(null, 204);
  });

  app.openapi(r.updateCollection, async (c) => {
    const { db } = c.get('deps');
    const { collection } = await requireCollection(c, c.req.valid('param').collectionId, 'admin');
    const updated = await updateCollection(db, collection.id, c.req.valid('json'));
    c.get('access').reset(collection.org_id);
    return c.json(presentCollection(updated, await c.get('access').org(collection.org_id), baseUrl(c)), 200);
  });

  app.openapi(r.listCollectionSpaces, async (c) => {
    const { db } = c.get('deps');
    const { collection, access } = await requireCollection(c, c.req.valid('param').collectionId);
    let visibleIds: string[] | undefined;
    if (access.orgRole === null) {
      const rows = await db.query<{ id: string; parent_id: string | null; default_level: null }>(
        'SELECT id, parent_id, default_level FROM spaces WHERE parent_id = $1 AND deleted_at IS NULL',
        [collection.id],
      );
      visibleIds = rows.filter((s) => access.roleOn(s)).map((s) => s.id);
    }
    const page = await listSpaces(db, collection.org_id, { parentId: collection.id, visibleIds }, c.req.valid('query'));
    return c.json(await presentSpaceList(c, page, access), 200);
  });

  app.openapi(r.moveCollection, async (c) => {
    const { db } = c.get('deps');
    const { collection, access } = await requireCollection(c, c.req.valid('param').collectionId, 'admin');
    await db.transaction((tx) => moveItem(tx, access, 'collection', collection, c.req.valid('json')));
    c.get('access').reset(collection.org_id);
    const moved = await getCollection(db, collection.id);
    return c.json(presentCollection(moved as never, await c.get('access').org(collection.org_id), baseUrl(c)), 200);
  });

  app.openapi(r.transferCollection, async (c) => {
    const { db } = c.get('deps');
    const { collection } = await requireCollection(c, c.req.valid('param').collectionId, 'admin');
    const target = c.req.valid('json').organization;
    const targetAccess = await c.get('access').org(target);
    if (!targetAccess.isMember) throw notFound('organization');
    if (target === collection.org_id)
      throw badRequest('The transfer would not result in any update: the collection is already in this organization.');
    if (!atLeast(targetAccess.orgRole, 'create')) throw forbidden('This needs the create role in the target organization.');
    if (collection.parent_id) throw badRequest('The collection cannot be moved: move it to the top level of its organization first.');
    await db.transaction(async (tx) => {
      const ids = await collectionSubtree(tx, collection.id);
      const position = keyBetween(await lastPosition(tx, target, null), null);
      // Grants name users and teams of the old organization; they mean nothing in the new one.
      await tx.query('DELETE FROM grants WHERE resource_id = ANY($1) OR resource_id IN (SELECT id FROM spaces WHERE parent_id = ANY($1))', [
        ids,
      ]);
      await tx.query('UPDATE spaces SET org_id = $2, updated_at = now() WHERE parent_id = ANY($1)', [ids, target]);
      await tx.query('UPDATE collections SET org_id = $2, updated_at = now() WHERE id = ANY($1)', [ids, target]);
      await tx.query('UPDATE collections SET position = $2 WHERE id = $1', [collection.id, position]);
    });
    c.get('access').reset();
    const moved = await getCollection(db, collection.id);
    return c.json(presentCollection(moved as never, await c.get('access').org(target), baseUrl(c)), 200);
  });
}

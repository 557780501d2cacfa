import type { OpenAPIHono } from '@hono/zod-openapi';
import { deleteCollectionTree, transferCollection } from '../../core/collections';
import { moveItem } from '../../core/placement';
import { visibleSpaceIds } from '../../core/visibleSpaces';
import { getCollection, updateCollection } from '../../store/collections';
import { listSpaces } from '../../store/spaces';
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
    await deleteCollectionTree(db, collectionId);
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
    // A guest lists only the spaces their grants open.
    const visibleIds = access.orgRole === null ? await visibleSpaceIds(db, access, { collectionId: collection.id }) : undefined;
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
    await transferCollection(db, collection, target, await c.get('access').org(target));
    c.get('access').reset();
    const moved = await getCollection(db, collection.id);
    return c.json(presentCollection(moved as never, await c.get('access').org(target), baseUrl(c)), 200);
  });
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import { changeCollection, deleteCollection, moveCollection, transferCollection } from '../../core/collections';
import { listVisibleSpaces } from '../../core/spaceLists';
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
    await deleteCollection(c.get('deps').db, c.get('access'), c.req.valid('param').collectionId);
    return c.body(null, 204);
  });

  app.openapi(r.updateCollection, async (c) => {
    const { collection } = await requireCollection(c, c.req.valid('param').collectionId, 'administer');
    const updated = await changeCollection(c.get('deps').db, c.get('access'), collection, c.req.valid('json'));
    return c.json(presentCollection(updated.collection, updated.access, baseUrl(c)), 200);
  });

  app.openapi(r.listCollectionSpaces, async (c) => {
    const { collection, access } = await requireCollection(c, c.req.valid('param').collectionId);
    const within = { orgId: collection.org_id, collectionId: collection.id };
    const listed = await listVisibleSpaces(c.get('deps').db, access, within, c.req.valid('query'));
    return c.json(presentSpaceList(c, listed, access), 200);
  });

  app.openapi(r.moveCollection, async (c) => {
    const { collection, access } = await requireCollection(c, c.req.valid('param').collectionId, 'administer');
    const moved = await moveCollection(c.get('deps').db, c.get('access'), collection, access, c.req.valid('json'));
    return c.json(presentCollection(moved.collection, moved.access, baseUrl(c)), 200);
  });

  app.openapi(r.transferCollection, async (c) => {
    const { collection } = await requireCollection(c, c.req.valid('param').collectionId, 'administer');
    const moved = await transferCollection(c.get('deps').db, c.get('access'), collection, c.req.valid('json').organization);
    return c.json(presentCollection(moved.collection, moved.access, baseUrl(c)), 200);
  });
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../core/collections/commands';
import { getCollection } from '../../core/collections/queries';
import { listCollectionSpaces } from '../../core/spaces/queries';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import * as r from './routes';

export function registerCollections(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.getCollection, async (c) => c.json(await getCollection(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.deleteCollection, async (c) => {
    await commands.deleteCollection(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.updateCollection, async (c) =>
    c.json(await commands.updateCollection(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.listCollectionSpaces, async (c) =>
    c.json(await listCollectionSpaces(commandContext(c), { ...c.req.valid('param'), page: c.req.valid('query') }), 200),
  );

  app.openapi(r.moveCollection, async (c) =>
    c.json(await commands.moveCollection(commandContext(c), { ...c.req.valid('param'), to: c.req.valid('json') }), 200),
  );

  app.openapi(r.transferCollection, async (c) =>
    c.json(await commands.transferCollection(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('json') }), 200),
  );
}

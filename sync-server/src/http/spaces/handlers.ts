import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../core/spaces/commands';
import { getSpace } from '../../core/spaces/queries';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import { cacheable } from '../responseCache';
import * as r from './routes';

export function registerSpaces(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.getSpace, async (c) => {
    const read = await getSpace(commandContext(c), { spaceId: c.req.valid('param').spaceId, shareKey: c.req.valid('query').shareKey });
    if (read.keptBy) cacheable(c, read.keptBy);
    return c.json(read.space, 200);
  });

  app.openapi(r.deleteSpace, async (c) => {
    await commands.deleteSpace(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.updateSpace, async (c) =>
    c.json(await commands.updateSpace(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.duplicateSpace, async (c) => c.json(await commands.duplicateSpace(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.restoreSpace, async (c) => c.json(await commands.restoreSpace(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.moveSpace, async (c) =>
    c.json(await commands.moveSpace(commandContext(c), { ...c.req.valid('param'), to: c.req.valid('json') }), 200),
  );

  app.openapi(r.transferSpace, async (c) =>
    c.json(await commands.transferSpace(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('json') }), 200),
  );
}

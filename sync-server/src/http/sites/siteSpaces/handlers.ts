import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../../core/siteStructure/commands';
import * as queries from '../../../core/siteStructure/queries';
import { commandContext } from '../../../web/commandContext';
import type { AppEnv } from '../../env';
import * as r from './routes';

export function registerSiteSpaces(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSiteSpaces, async (c) =>
    c.json(await queries.listSiteSpaces(commandContext(c), { ...c.req.valid('param'), query: c.req.valid('query') }), 200),
  );

  app.openapi(r.createSiteSpace, async (c) =>
    c.json(await commands.createSiteSpace(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );

  app.openapi(r.deleteSiteSpace, async (c) => {
    await commands.deleteSiteSpace(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.updateSiteSpace, async (c) =>
    c.json(await commands.updateSiteSpace(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.moveSiteSpace, async (c) =>
    c.json(await commands.moveSiteSpace(commandContext(c), { ...c.req.valid('param'), move: c.req.valid('json') }), 200),
  );
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../../core/siteRedirects/commands';
import * as queries from '../../../core/siteRedirects/queries';
import { commandContext } from '../../../web/commandContext';
import type { AppEnv } from '../../env';
import * as r from './routes';

export function registerSiteRedirects(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listRedirects, async (c) =>
    c.json(await queries.listRedirects(commandContext(c), { ...c.req.valid('param'), query: c.req.valid('query') }), 200),
  );

  app.openapi(r.createRedirect, async (c) =>
    c.json(await commands.createRedirect(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );

  app.openapi(r.getRedirect, async (c) => c.json(await queries.getRedirect(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.deleteRedirect, async (c) => {
    await commands.deleteRedirect(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.updateRedirect, async (c) =>
    c.json(await commands.updateRedirect(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.resolveRedirect, async (c) => {
    const { source, shareKey } = c.req.valid('query');
    return c.json(await queries.resolveRedirect(commandContext(c), { ...c.req.valid('param'), source, shareKey }), 200);
  });
}

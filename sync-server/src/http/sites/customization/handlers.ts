import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../../core/siteCustomization/commands';
import * as queries from '../../../core/siteCustomization/queries';
import { commandContext } from '../../../web/commandContext';
import type { AppEnv } from '../../env';
import * as r from './routes';

export function registerSiteCustomization(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.getSiteCustomization, async (c) => c.json(await queries.getCustomization(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.putSiteCustomization, async (c) =>
    c.json(await commands.putCustomization(commandContext(c), { ...c.req.valid('param'), settings: c.req.valid('json') }), 200),
  );

  app.openapi(r.getSiteSpaceCustomization, async (c) =>
    c.json(await queries.getSiteSpaceCustomization(commandContext(c), c.req.valid('param')), 200),
  );

  app.openapi(r.deleteSiteSpaceCustomization, async (c) => {
    await commands.deleteSiteSpaceCustomization(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.patchSiteSpaceCustomization, async (c) =>
    c.json(await commands.patchSiteSpaceCustomization(commandContext(c), { ...c.req.valid('param'), patch: c.req.valid('json') }), 200),
  );
}

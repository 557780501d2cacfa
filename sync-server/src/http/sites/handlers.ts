import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../core/sites/commands';
import * as queries from '../../core/sites/queries';
import { forgetSiteHostnames } from '../../sites/hostnames';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import { registerSiteCustomization } from './customization/handlers';
import { registerSiteRedirects } from './redirects/handlers';
import * as r from './routes';
import { registerSiteSectionGroups } from './sectionGroups/handlers';
import { registerSiteSections } from './sections/handlers';
import { registerSiteSpaces } from './siteSpaces/handlers';

/** Every site operation: sites, sections, section groups, site spaces, customization, redirects. */
export function registerSites(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSites, async (c) =>
    c.json(await queries.listSites(commandContext(c), { ...c.req.valid('param'), query: c.req.valid('query') }), 200),
  );

  app.openapi(r.createSite, async (c) =>
    c.json(await commands.createSite(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );

  app.openapi(r.getSite, async (c) => c.json(await queries.getSite(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.deleteSite, async (c) => {
    if (await commands.deleteSite(commandContext(c), c.req.valid('param'))) forgetSiteHostnames();
    return c.body(null, 204);
  });

  app.openapi(r.updateSite, async (c) => {
    const changes = c.req.valid('json');
    const site = await commands.updateSite(commandContext(c), { ...c.req.valid('param'), changes });
    if (changes.hostname !== undefined) forgetSiteHostnames();
    return c.json(site, 200);
  });

  app.openapi(r.getAdaptiveSchema, async (c) => c.json(await queries.getAdaptiveSchema(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.putAdaptiveSchema, async (c) =>
    c.json(
      await commands.putAdaptiveSchema(commandContext(c), { ...c.req.valid('param'), jsonSchema: c.req.valid('json').jsonSchema }),
      200,
    ),
  );

  app.openapi(r.getTemplateConditions, async (c) =>
    c.json(await queries.listTemplateConditions(commandContext(c), { ...c.req.valid('param'), page: c.req.valid('query') }), 200),
  );

  app.openapi(r.getPublishedSite, async (c) =>
    c.json(await queries.getPublishedSite(commandContext(c), { ...c.req.valid('param'), shareKey: c.req.valid('query').shareKey }), 200),
  );

  app.openapi(r.publishSite, async (c) => c.json(await commands.publishSite(commandContext(c), c.req.valid('param')), 200));

  registerSiteSections(app);
  registerSiteSectionGroups(app);
  registerSiteSpaces(app);
  registerSiteCustomization(app);
  registerSiteRedirects(app);
}

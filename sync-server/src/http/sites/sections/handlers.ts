import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../../core/siteStructure/commands';
import * as queries from '../../../core/siteStructure/queries';
import { commandContext } from '../../../web/commandContext';
import type { AppEnv } from '../../env';
import * as r from './routes';

export function registerSiteSections(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSections, async (c) =>
    c.json(await queries.listSections(commandContext(c), { ...c.req.valid('param'), query: c.req.valid('query') }), 200),
  );

  app.openapi(r.createSection, async (c) =>
    c.json(await commands.createSection(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );

  app.openapi(r.deleteSection, async (c) => {
    await commands.deleteSection(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.updateSection, async (c) =>
    c.json(await commands.updateSection(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.moveSection, async (c) =>
    c.json(await commands.moveSection(commandContext(c), { ...c.req.valid('param'), move: c.req.valid('json') }), 200),
  );
}

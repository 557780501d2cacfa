import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../../core/siteStructure/commands';
import * as queries from '../../../core/siteStructure/queries';
import { commandContext } from '../../../web/commandContext';
import type { AppEnv } from '../../env';
import * as r from './routes';

export function registerSiteSectionGroups(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSectionGroups, async (c) =>
    c.json(await queries.listSectionGroups(commandContext(c), { ...c.req.valid('param'), page: c.req.valid('query') }), 200),
  );

  app.openapi(r.getSectionGroup, async (c) => c.json(await queries.getSectionGroup(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.createSectionGroup, async (c) =>
    c.json(await commands.createSectionGroup(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );

  app.openapi(r.deleteSectionGroup, async (c) => {
    await commands.deleteSectionGroup(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.updateSectionGroup, async (c) =>
    c.json(await commands.updateSectionGroup(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.addSectionToGroup, async (c) =>
    c.json(await commands.addSectionToGroup(commandContext(c), { ...c.req.valid('param'), sectionId: c.req.valid('json').sectionId }), 200),
  );

  app.openapi(r.removeSectionFromGroup, async (c) => {
    await commands.removeSectionFromGroup(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.moveSectionGroup, async (c) =>
    c.json(await commands.moveSectionGroup(commandContext(c), { ...c.req.valid('param'), move: c.req.valid('json') }), 200),
  );
}

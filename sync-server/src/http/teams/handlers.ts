import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../core/teams/commands';
import * as queries from '../../core/teams/queries';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import * as r from './routes';

export function registerTeams(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listTeams, async (c) =>
    c.json(await queries.listTeams(commandContext(c), { ...c.req.valid('param'), query: c.req.valid('query') }), 200),
  );

  app.openapi(r.createTeam, async (c) =>
    c.json(await commands.createTeam(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );

  app.openapi(r.getTeam, async (c) => c.json(await queries.getTeam(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.deleteTeam, async (c) => {
    await commands.deleteTeam(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.updateTeam, async (c) =>
    c.json(await commands.updateTeam(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.listTeamMembers, async (c) =>
    c.json(await queries.listTeamMembers(commandContext(c), { ...c.req.valid('param'), page: c.req.valid('query') }), 200),
  );

  app.openapi(r.updateTeamMembers, async (c) => {
    await commands.updateTeamMembers(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') });
    return c.body(null, 204);
  });

  app.openapi(r.putTeamMember, async (c) => {
    await commands.putTeamMember(commandContext(c), { ...c.req.valid('param'), role: c.req.valid('json').role });
    return c.body(null, 204);
  });

  app.openapi(r.deleteTeamMember, async (c) => {
    await commands.deleteTeamMember(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../core/members/commands';
import * as queries from '../../core/members/queries';
import { tags } from '../../core/readModel/readModel';
import { listMemberTeams } from '../../core/teams/queries';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import { cacheable } from '../responseCache';
import * as r from './routes';

export function registerMembers(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listMembers, async (c) => {
    const { organizationId } = c.req.valid('param');
    const list = await queries.listMembers(commandContext(c), { organizationId, query: c.req.valid('query') });
    cacheable(c, [tags.org(organizationId), tags.access(organizationId), tags.memberUsers(organizationId), tags.spacesOf(organizationId)]);
    return c.json(list, 200);
  });

  app.openapi(r.getMember, async (c) => c.json(await queries.getMember(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.deleteMember, async (c) => {
    await commands.deleteMember(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.updateMember, async (c) =>
    c.json(await commands.updateMember(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.setMemberSso, async (c) => c.json(await commands.setMemberSso(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.listMemberSpaces, async (c) =>
    c.json(await queries.listMemberSpaces(commandContext(c), { ...c.req.valid('param'), query: c.req.valid('query') }), 200),
  );

  app.openapi(r.listMemberTeams, async (c) => {
    const { title, ...page } = c.req.valid('query');
    return c.json(await listMemberTeams(commandContext(c), { ...c.req.valid('param'), title, page }), 200);
  });
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Role } from '@quire/shared';
import { changeMemberRole, makeSsoMember, memberSeenBy, membersOf, removeMemberAs, spacesOfMember } from '../../core/organizations/members';
import { teamsOfMember } from '../../core/organizations/teams';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { envelope } from '../../core/views/listing';
import { presentMember } from '../../core/views/member';
import { presentSpace } from '../../core/views/space';
import { presentTeam } from '../../core/views/team';
import { baseUrl } from '../urls';
import * as r from './routes';
import { cacheable } from '../responseCache';
import { tags } from '../../core/readModel/readModel';

export function registerMembers(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listMembers, async (c) => {
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    const q = c.req.valid('query');
    const page = await membersOf(c.get('deps').db, c.get('caller'), access, org.id, q, q);
    const base = baseUrl(c);
    cacheable(c, [tags.org(org.id), tags.access(org.id), tags.memberUsers(org.id), tags.spacesOf(org.id)]);
    return c.json(
      envelope(page, (m) => presentMember(m, base, access)),
      200,
    );
  });

  app.openapi(r.getMember, async (c) => {
    const { organizationId, userId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    const m = await memberSeenBy(c.get('deps').db, c.get('caller'), access, organizationId, userId);
    return c.json(presentMember(m, baseUrl(c), access), 200);
  });

  app.openapi(r.deleteMember, async (c) => {
    const { organizationId, userId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    await removeMemberAs(c.get('deps').db, c.get('caller'), access, organizationId, userId);
    return c.body(null, 204);
  });

  app.openapi(r.updateMember, async (c) => {
    const { organizationId, userId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, 'manage');
    const m = await changeMemberRole(c.get('deps').db, c.get('access'), organizationId, userId, c.req.valid('json').role);
    return c.json(presentMember(m, baseUrl(c), access), 200);
  });

  app.openapi(r.setMemberSso, async (c) => {
    const { organizationId, userId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, 'manage');
    return c.json(presentMember(await makeSsoMember(c.get('deps').db, organizationId, userId), baseUrl(c), access), 200);
  });

  app.openapi(r.listMemberSpaces, async (c) => {
    const { organizationId, userId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    const q = c.req.valid('query');
    const { page, counts, target } = await spacesOfMember(c.get('deps').db, c.get('caller'), access, organizationId, userId, q);
    const base = baseUrl(c);
    return c.json(
      envelope(page, (s) => ({ permission: target.roleOn(s) as Role, space: presentSpace(s, access, base, counts.get(s.id) as never) })),
      200,
    );
  });

  app.openapi(r.listMemberTeams, async (c) => {
    const { organizationId, userId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    const q = c.req.valid('query');
    const page = await teamsOfMember(c.get('deps').db, c.get('caller'), access, organizationId, userId, q.title, q);
    const self = userId === c.get('caller').user.id;
    const base = baseUrl(c);
    return c.json(
      envelope(page, (t) => ({ team: presentTeam(t, access, self && t.member_role === 'owner', base), member: { role: t.member_role } })),
      200,
    );
  });
}

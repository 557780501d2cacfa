import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  createTeam,
  deleteTeam,
  putTeamMember,
  removeTeamMember,
  renameTeam,
  teamMembers,
  teamSeenBy,
  teamsOf,
  updateTeamMembers,
} from '../../core/organizations/teams';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { envelope } from '../../core/views/listing';
import { presentMember } from '../../core/views/member';
import { presentTeam } from '../../core/views/team';
import { baseUrl } from '../urls';
import * as r from './routes';

type Ctx = Context<AppEnv>;

/** The team and whether the caller may manage it (see `teamSeenBy`). */
async function requireTeam(c: Ctx, orgId: string, teamId: string, manage: boolean) {
  const { access } = await requireOrg(c, orgId);
  const seen = await teamSeenBy(c.get('deps').db, c.get('caller').user.id, access, orgId, teamId, manage);
  return { ...seen, access };
}

export function registerTeams(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listTeams, async (c) => {
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    const q = c.req.valid('query');
    const { page, owned } = await teamsOf(c.get('deps').db, c.get('caller').user.id, access, organizationId, q);
    return c.json(
      envelope(page, (t) => presentTeam(t, access, owned.has(t.id), baseUrl(c))),
      200,
    );
  });

  app.openapi(r.createTeam, async (c) => {
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, 'manage');
    const b = c.req.valid('json');
    const team = await createTeam(c.get('deps').db, organizationId, b.title, b.members ?? []);
    return c.json(presentTeam(team, access, true, baseUrl(c)), 200);
  });

  app.openapi(r.getTeam, async (c) => {
    const { organizationId, teamId } = c.req.valid('param');
    const { team, access, canManage } = await requireTeam(c, organizationId, teamId, false);
    return c.json(presentTeam(team, access, canManage, baseUrl(c)), 200);
  });

  app.openapi(r.deleteTeam, async (c) => {
    const { organizationId, teamId } = c.req.valid('param');
    await requireOrg(c, organizationId, 'manage');
    await deleteTeam(c.get('deps').db, organizationId, teamId);
    return c.body(null, 204);
  });

  app.openapi(r.updateTeam, async (c) => {
    const { organizationId, teamId } = c.req.valid('param');
    const { access, canManage } = await requireTeam(c, organizationId, teamId, true);
    const renamed = await renameTeam(c.get('deps').db, organizationId, teamId, c.req.valid('json').title);
    return c.json(presentTeam(renamed, access, canManage, baseUrl(c)), 200);
  });

  app.openapi(r.listTeamMembers, async (c) => {
    const { organizationId, teamId } = c.req.valid('param');
    const { access } = await requireTeam(c, organizationId, teamId, false);
    const { page, members } = await teamMembers(c.get('deps').db, organizationId, teamId, c.req.valid('query'));
    const base = baseUrl(c);
    const items = members.map(({ member, view }) => ({
      organization: presentMember(view, base, access),
      team: { role: member.role },
      permissions: { view: true },
    }));
    return c.json({ items, count: page.count, ...(page.next ? { next: { page: page.next } } : {}) }, 200);
  });

  app.openapi(r.updateTeamMembers, async (c) => {
    const { organizationId, teamId } = c.req.valid('param');
    await requireTeam(c, organizationId, teamId, true);
    await updateTeamMembers(c.get('deps').db, organizationId, teamId, c.req.valid('json'));
    return c.body(null, 204);
  });

  app.openapi(r.putTeamMember, async (c) => {
    const { organizationId, teamId, userId } = c.req.valid('param');
    await requireTeam(c, organizationId, teamId, true);
    await putTeamMember(c.get('deps').db, organizationId, teamId, userId, c.req.valid('json').role);
    return c.body(null, 204);
  });

  app.openapi(r.deleteTeamMember, async (c) => {
    const { organizationId, teamId, userId } = c.req.valid('param');
    await requireTeam(c, organizationId, teamId, true);
    await removeTeamMember(c.get('deps').db, teamId, userId);
    return c.body(null, 204);
  });
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { DbHandle } from '../../core/deps';
import { getMemberView, memberIdByRef } from '../../store/members';
import * as teams from '../../store/teams';
import { forbidden, notFound } from '@quire/shared/apiErrors';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { envelope } from '../listing';
import { presentMember } from '../presenters/member';
import { presentTeam } from '../presenters/team';
import { baseUrl } from '../urls';
import * as r from './routes';

type Ctx = Context<AppEnv>;

/** A member id or email of this organization → user id; anything else is 404, like a foreign id. */
async function resolveMember(db: DbHandle, orgId: string, ref: string): Promise<string> {
  const userId = await memberIdByRef(db, orgId, ref);
  if (!userId) throw notFound('member');
  return userId;
}

const GUEST_TEAMS = 'Guests can only see the teams they belong to.';

/**
 * Team and whether the caller may manage it: admins and the team's owners. Guests see only
 * the teams they are in, as the `listTeams` permission of the Organization says.
 */
async function requireTeam(c: Ctx, orgId: string, teamId: string, manage: boolean) {
  const { access } = await requireOrg(c, orgId);
  const team = await teams.getTeam(c.get('deps').db, orgId, teamId);
  if (!team) throw notFound('team');
  const ownRole = await teams.teamRoleOf(c.get('deps').db, teamId, c.get('caller').user.id);
  const canManage = access.isAdmin || ownRole === 'owner';
  if (manage && !canManage) throw forbidden('Only an admin or an owner of the team can change it.');
  if (access.orgRole === null && !ownRole) throw forbidden(GUEST_TEAMS);
  return { team, access, canManage };
}

export function registerTeams(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listTeams, async (c) => {
    const { db } = c.get('deps');
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    if (access.orgRole === null) throw forbidden(GUEST_TEAMS);
    const q = c.req.valid('query');
    const page = await teams.listTeams(db, organizationId, q, q);
    const me = c.get('caller').user.id;
    const owned = new Set(await teams.teamsOwnedBy(db, me));
    return c.json(
      envelope(page, (t) => presentTeam(t, access, owned.has(t.id), baseUrl(c))),
      200,
    );
  });

  app.openapi(r.createTeam, async (c) => {
    const { db } = c.get('deps');
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, 'admin');
    const b = c.req.valid('json');
    const teamId = await db.transaction(async (tx) => {
      const members = await Promise.all((b.members ?? []).map((m) => resolveMember(tx, organizationId, m)));
      const id = await teams.createTeam(tx, organizationId, b.title);
      for (const userId of members) await teams.upsertTeamMember(tx, id, userId, undefined);
      return id;
    });
    return c.json(presentTeam((await teams.getTeam(db, organizationId, teamId)) as teams.TeamRow, access, true, baseUrl(c)), 200);
  });

  app.openapi(r.getTeam, async (c) => {
    const { organizationId, teamId } = c.req.valid('param');
    const { team, access, canManage } = await requireTeam(c, organizationId, teamId, false);
    return c.json(presentTeam(team, access, canManage, baseUrl(c)), 200);
  });

  app.openapi(r.deleteTeam, async (c) => {
    const { organizationId, teamId } = c.req.valid('param');
    await requireOrg(c, organizationId, 'admin');
    await c.get('deps').db.transaction((tx) => teams.deleteTeam(tx, organizationId, teamId));
    return c.body(null, 204);
  });

  app.openapi(r.updateTeam, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, teamId } = c.req.valid('param');
    const { access, canManage } = await requireTeam(c, organizationId, teamId, true);
    await teams.renameTeam(db, teamId, c.req.valid('json').title);
    return c.json(presentTeam((await teams.getTeam(db, organizationId, teamId)) as teams.TeamRow, access, canManage, baseUrl(c)), 200);
  });

  app.openapi(r.listTeamMembers, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, teamId } = c.req.valid('param');
    const { access } = await requireTeam(c, organizationId, teamId, false);
    const page = await teams.listTeamMembers(db, teamId, c.req.valid('query'));
    const base = baseUrl(c);
    const views = await Promise.all(page.rows.map((m) => getMemberView(db, organizationId, m.user_id)));
    const items = page.rows.flatMap((m, i) => {
      const v = views[i];
      return v ? [{ organization: presentMember(v, base, access), team: { role: m.role }, permissions: { view: true } }] : [];
    });
    return c.json({ items, count: page.count, ...(page.next ? { next: { page: page.next } } : {}) }, 200);
  });

  app.openapi(r.updateTeamMembers, async (c) => {
    const { organizationId, teamId } = c.req.valid('param');
    await requireTeam(c, organizationId, teamId, true);
    const b = c.req.valid('json');
    await c.get('deps').db.transaction(async (tx) => {
      const add = await Promise.all((b.add ?? []).map((m) => resolveMember(tx, organizationId, m)));
      const remove = new Set(await Promise.all((b.remove ?? []).map((m) => resolveMember(tx, organizationId, m))));
      const roles = new Map<string, 'member' | 'owner'>();
      for (const [ref, m] of Object.entries(b.memberships ?? {})) roles.set(await resolveMember(tx, organizationId, ref), m.role);
      // A user both added and removed is removed: removal wins.
      for (const userId of add) if (!remove.has(userId)) await teams.upsertTeamMember(tx, teamId, userId, roles.get(userId));
      for (const [userId, role] of roles) {
        if (remove.has(userId) || add.includes(userId)) continue;
        await teams.setTeamMemberRole(tx, teamId, userId, role);
      }
      for (const userId of remove) await teams.removeTeamMember(tx, teamId, userId);
    });
    return c.body(null, 204);
  });

  app.openapi(r.putTeamMember, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, teamId, userId } = c.req.valid('param');
    await requireTeam(c, organizationId, teamId, true);
    const member = await resolveMember(db, organizationId, userId);
    await teams.upsertTeamMember(db, teamId, member, c.req.valid('json').role);
    return c.body(null, 204);
  });

  app.openapi(r.deleteTeamMember, async (c) => {
    const { organizationId, teamId, userId } = c.req.valid('param');
    await requireTeam(c, organizationId, teamId, true);
    await teams.removeTeamMember(c.get('deps').db, teamId, userId);
    return c.body(null, 204);
  });
}

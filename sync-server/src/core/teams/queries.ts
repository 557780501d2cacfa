import type { Team } from '@quire/shared';
import { forbidden, notFound } from '@quire/shared/domainErrors';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { MEMBER_REFUSALS, mayMember } from '../policies/members';
import { GUEST_TEAMS, mayTeam } from '../policies/teams';
import { envelope } from '../views/listing';
import { presentMemberTeam, presentTeam, presentTeamMember } from '../views/team';
import { getMemberView } from '../../store/members';
import type { PageRequest } from '../../store/paginate';
import * as teams from '../../store/teams';
import { teamSeenBy } from './rules';

/*
 * The reads of the `/v1` team operations, taking the caller's context and the operation's
 * input and answering the view models. Guests see only the teams they are in.
 */

/** The teams of an organization (not for guests), each with whether the caller may manage it. */
export async function listTeams(ctx: CommandContext, input: { organizationId: string; query: PageRequest & teams.TeamFilter }) {
  const { db } = ctx.deps;
  const { org, access } = await orgSeenBy(db, ctx.access, input.organizationId);
  if (!mayTeam(access, null, 'list')) throw forbidden(GUEST_TEAMS);
  const page = await teams.listTeams(db, org.id, input.query, input.query);
  const owned = new Set(await teams.teamsOwnedBy(db, ctx.userId));
  return envelope(page, (t) => presentTeam(t, access, owned.has(t.id), ctx.baseUrl));
}

export async function getTeam(ctx: CommandContext, input: { organizationId: string; teamId: string }): Promise<Team> {
  const { team, access, canManage } = await teamSeenBy(ctx, input, 'view');
  return presentTeam(team, access, canManage, ctx.baseUrl);
}

/** A team's members, each with their membership of the organization (members who left since are skipped). */
export async function listTeamMembers(ctx: CommandContext, input: { organizationId: string; teamId: string; page: PageRequest }) {
  const { db } = ctx.deps;
  const { team, access } = await teamSeenBy(ctx, input, 'view');
  const page = await teams.listTeamMembers(db, team.id, input.page);
  const views = await Promise.all(page.rows.map((m) => getMemberView(db, team.org_id, m.user_id)));
  const items = page.rows.flatMap((member, i) => {
    const view = views[i];
    return view ? [presentTeamMember(member, view, access, ctx.baseUrl)] : [];
  });
  return { items, count: page.count, ...(page.next ? { next: { page: page.next } } : {}) };
}

/** The teams a member is in, with their role in each: guests see only their own (403), an unknown member is 404. */
export async function listMemberTeams(
  ctx: CommandContext,
  input: { organizationId: string; userId: string; title?: string; page: PageRequest },
) {
  const { db } = ctx.deps;
  const { org, access } = await orgSeenBy(db, ctx.access, input.organizationId);
  const self = input.userId === ctx.userId;
  if (!mayMember(access, self, 'view')) throw forbidden(MEMBER_REFUSALS.view);
  if (!(await getMemberView(db, org.id, input.userId))) throw notFound('member');
  const page = await teams.listTeamsOfUser(db, org.id, input.userId, input.title, input.page);
  return envelope(page, (t) => presentMemberTeam(t, access, self, ctx.baseUrl));
}

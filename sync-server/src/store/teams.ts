import { type TeamRole, newId } from '@quire/shared';
import { type Queryable, maybeOne, one } from './db';
import { type PageRequest, keysetPage } from './paginate';

export interface TeamRow {
  id: string;
  seq: number;
  org_id: string;
  title: string;
  created_at: Date;
  members: number;
  spaces: number;
}

const COLUMNS = `t.*,
  (SELECT count(*)::int FROM team_members tm WHERE tm.team_id = t.id) AS members,
  (SELECT count(*)::int FROM grants g JOIN spaces s ON s.id = g.resource_id
     WHERE g.principal_id = t.id AND g.principal_kind = 'team' AND s.deleted_at IS NULL) AS spaces`;

export function getTeam(db: Queryable, orgId: string, teamId: string) {
  return maybeOne<TeamRow>(db, `SELECT ${COLUMNS} FROM teams t WHERE t.org_id = $1 AND t.id = $2`, [orgId, teamId]);
}

export async function createTeam(db: Queryable, orgId: string, title: string): Promise<string> {
  const row = await one<{ id: string }>(db, 'INSERT INTO teams (id, org_id, title) VALUES ($1, $2, $3) RETURNING id', [
    newId(),
    orgId,
    title,
  ]);
  return row.id;
}

export async function renameTeam(db: Queryable, teamId: string, title: string) {
  await db.query('UPDATE teams SET title = $2 WHERE id = $1', [teamId, title]);
}

export async function deleteTeam(db: Queryable, orgId: string, teamId: string) {
  await db.query("DELETE FROM grants WHERE principal_id = $1 AND principal_kind = 'team'", [teamId]);
  await db.query('DELETE FROM teams WHERE org_id = $1 AND id = $2', [orgId, teamId]);
}

export interface TeamFilter {
  /** Only teams this user can manage (owner of the team). */
  owner?: string;
  title?: string;
}

function escapeLike(s: string) {
  return `%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export function listTeams(db: Queryable, orgId: string, f: TeamFilter, page: PageRequest) {
  const params: unknown[] = [orgId];
  let where = 'WHERE t.org_id = $1';
  if (f.owner) {
    params.push(f.owner);
    where += ` AND EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = t.id AND o.user_id = $${params.length} AND o.role = 'owner')`;
  }
  if (f.title) {
    params.push(escapeLike(f.title));
    where += ` AND t.title ILIKE $${params.length}`;
  }
  return keysetPage<TeamRow>(db, { columns: COLUMNS, from: `FROM teams t ${where}`, params, seq: 't.seq' }, page);
}

export function listTeamsOfUser(db: Queryable, orgId: string, userId: string, title: string | undefined, page: PageRequest) {
  const params: unknown[] = [orgId, userId];
  let where = 'WHERE t.org_id = $1 AND tm.user_id = $2';
  if (title) {
    params.push(escapeLike(title));
    where += ` AND t.title ILIKE $${params.length}`;
  }
  return keysetPage<TeamRow & { member_role: TeamRole }>(
    db,
    {
      columns: `${COLUMNS}, tm.role AS member_role`,
      from: `FROM teams t JOIN team_members tm ON tm.team_id = t.id ${where}`,
      params,
      seq: 't.seq',
    },
    page,
  );
}

export interface TeamMemberRow {
  user_id: string;
  role: TeamRole;
}

export function listTeamMembers(db: Queryable, teamId: string, page: PageRequest) {
  return keysetPage<TeamMemberRow>(
    db,
    { columns: 'tm.user_id, tm.role', from: 'FROM team_members tm WHERE tm.team_id = $1', params: [teamId], seq: 'tm.seq' },
    page,
  );
}

export async function upsertTeamMember(db: Queryable, teamId: string, userId: string, role: TeamRole | undefined) {
  await db.query(
    `INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, COALESCE($3, 'member'))
     ON CONFLICT (team_id, user_id) DO UPDATE SET role = COALESCE($3, team_members.role)`,
    [teamId, userId, role ?? null],
  );
}

export async function removeTeamMember(db: Queryable, teamId: string, userId: string) {
  await db.query('DELETE FROM team_members WHERE team_id = $1 AND user_id = $2', [teamId, userId]);
}

export async function teamRoleOf(db: Queryable, teamId: string, userId: string): Promise<TeamRole | undefined> {
  const row = await maybeOne<{ role: TeamRole }>(db, 'SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2', [teamId, userId]);
  return row?.role;
}

/** Ids of the teams a user owns. */
export async function teamsOwnedBy(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db.query<{ team_id: string }>("SELECT team_id FROM team_members WHERE user_id = $1 AND role = 'owner'", [userId]);
  return rows.map((r) => r.team_id);
}

export async function setTeamMemberRole(db: Queryable, teamId: string, userId: string, role: TeamRole) {
  await db.query('UPDATE team_members SET role = $3 WHERE team_id = $1 AND user_id = $2', [teamId, userId, role]);
}

import type { Role } from '@quire/shared';
import { type Queryable, maybeOne } from './db';
import { type Keyset, type PageRequest, keysetPage } from './paginate';
import type { UserRow } from './users';

export interface MemberRow {
  org_id: string;
  user_id: string;
  seq: number;
  role: Role | null;
  disabled: boolean;
  sso: boolean;
  joined_at: Date;
  last_seen_at: Date | null;
}

/** A member joined with its user and its counts, as the Member resource needs. */
export interface MemberView extends MemberRow {
  user: UserRow;
  spaces: number;
  teams: number;
}

/** The member's row and its user's, flat; `toView` nests the user. */
const VIEW_COLUMNS = `m.*, u.email AS u_email, u.display_name AS u_display_name, u.photo_url AS u_photo_url,
  u.email_verified AS u_email_verified, u.created_at AS u_created_at`;

interface FlatMember extends MemberRow {
  u_email: string;
  u_display_name: string;
  u_photo_url: string | null;
  u_email_verified: boolean;
  u_created_at: Date;
}

function toView(r: FlatMember, counts: Map<string, { teams: number; spaces: number }>): MemberView {
  const { u_email, u_display_name, u_photo_url, u_email_verified, u_created_at, ...member } = r;
  const user: UserRow = {
    id: r.user_id,
    email: u_email,
    display_name: u_display_name,
    photo_url: u_photo_url,
    email_verified: u_email_verified,
    created_at: u_created_at,
  };
  return { ...member, user, teams: counts.get(r.user_id)?.teams ?? 0, spaces: counts.get(r.user_id)?.spaces ?? 0 };
}

/**
 * Team and space counts of some members, two grouped queries for a whole page (a count
 * per row, run inside the page query, cost a subquery for each of up to 1000 rows).
 */
async function memberCounts(db: Queryable, orgId: string, userIds: string[]) {
  const out = new Map<string, { teams: number; spaces: number }>();
  if (userIds.length === 0) return out;
  for (const id of userIds) out.set(id, { teams: 0, spaces: 0 });
  const [teams, spaces] = await Promise.all([
    db.query<{ user_id: string; n: number }>(
      `SELECT tm.user_id, count(*)::int AS n FROM team_members tm JOIN teams t ON t.id = tm.team_id
       WHERE t.org_id = $1 AND tm.user_id = ANY($2) GROUP BY tm.user_id`,
      [orgId, userIds],
    ),
    db.query<{ user_id: string; n: number }>(
      `SELECT g.principal_id AS user_id, count(*)::int AS n FROM grants g JOIN spaces s ON s.id = g.resource_id
       WHERE s.org_id = $1 AND s.deleted_at IS NULL AND g.principal_kind = 'user' AND g.principal_id = ANY($2) GROUP BY g.principal_id`,
      [orgId, userIds],
    ),
  ]);
  for (const r of teams) (out.get(r.user_id) as { teams: number }).teams = r.n;
  for (const r of spaces) (out.get(r.user_id) as { spaces: number }).spaces = r.n;
  return out;
}

export function getMembership(db: Queryable, orgId: string, userId: string) {
  return maybeOne<MemberRow>(db, 'SELECT * FROM org_members WHERE org_id = $1 AND user_id = $2', [orgId, userId]);
}

export async function getMemberView(db: Queryable, orgId: string, userId: string): Promise<MemberView | undefined> {
  const row = await maybeOne<FlatMember>(
    db,
    `SELECT ${VIEW_COLUMNS} FROM org_members m JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND m.user_id = $2`,
    [orgId, userId],
  );
  return row && toView(row, await memberCounts(db, orgId, [row.user_id]));
}

export interface MemberFilter {
  /** A role, or `guest` for members without one. */
  role?: Role | 'guest';
  search?: string;
  sort?: 'joinedAt' | 'lastSeenAt' | 'name';
  order?: 'asc' | 'desc';
}

/**
 * The leading sort key of a member list. Names sort case-insensitively on a bounded prefix,
 * so the key always fits in a page cursor.
 */
function memberSort(sort: MemberFilter['sort']): { expr: string; type: string } {
  if (sort === 'name') return { expr: 'lower(left(u.display_name, 100))', type: 'text' };
  return { expr: sort === 'lastSeenAt' ? 'm.last_seen_at' : 'm.joined_at', type: 'timestamptz' };
}

export async function listMembers(db: Queryable, orgId: string, f: MemberFilter, page: PageRequest) {
  const params: unknown[] = [orgId];
  let where = 'WHERE m.org_id = $1';
  if (f.role === 'guest') {
    where += ' AND m.role IS NULL';
  } else if (f.role) {
    params.push(f.role);
    where += ` AND m.role = $${params.length}`;
  }
  if (f.search) {
    params.push(`%${f.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
    where += ` AND (u.display_name ILIKE $${params.length} OR u.email ILIKE $${params.length})`;
  }
  if (f.sort === 'lastSeenAt') where += ' AND m.last_seen_at IS NOT NULL';
  const q: Keyset = {
    columns: VIEW_COLUMNS,
    from: `FROM org_members m JOIN users u ON u.id = m.user_id ${where}`,
    // Every member has a user: without a search on the user, counting needs no join.
    countFrom: f.search ? undefined : `FROM org_members m ${where}`,
    params,
    seq: 'm.seq',
    order: f.order ?? 'desc',
    sort: memberSort(f.sort),
  };
  const res = await keysetPage<FlatMember>(db, q, page);
  const counts = await memberCounts(
    db,
    orgId,
    res.rows.map((r) => r.user_id),
  );
  return { ...res, rows: res.rows.map((r) => toView(r, counts)) };
}

export async function addMember(db: Queryable, orgId: string, userId: string, role: Role | null) {
  await db.query('INSERT INTO org_members (org_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [orgId, userId, role]);
}

/** Removes a member and everything that only made sense through the membership. */
export async function removeMember(db: Queryable, orgId: string, userId: string) {
  await db.query('DELETE FROM team_members WHERE user_id = $2 AND team_id IN (SELECT id FROM teams WHERE org_id = $1)', [orgId, userId]);
  await db.query(
    `DELETE FROM grants WHERE principal_id = $2 AND principal_kind = 'user' AND (
       resource_id IN (SELECT id FROM spaces WHERE org_id = $1) OR resource_id IN (SELECT id FROM collections WHERE org_id = $1))`,
    [orgId, userId],
  );
  await db.query('DELETE FROM org_members WHERE org_id = $1 AND user_id = $2', [orgId, userId]);
}

/**
 * Serializes changes to an organization's membership for the rest of the transaction, so
 * two admins demoting or removing each other at once cannot leave it without an admin.
 */
export async function lockMembership(tx: Queryable, orgId: string) {
  await tx.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [orgId]);
}

export async function setMemberRole(db: Queryable, orgId: string, userId: string, role: Role | null) {
  await db.query('UPDATE org_members SET role = $3 WHERE org_id = $1 AND user_id = $2', [orgId, userId, role]);
}

/** Enabled admins: a disabled admin cannot administrate, so does not count as one. */
export async function countAdmins(db: Queryable, orgId: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM org_members WHERE org_id = $1 AND role = 'admin' AND NOT disabled",
    [orgId],
  );
  return rows[0]?.n ?? 0;
}

/** Which of `userIds` are members of the organization. */
export async function membersAmong(db: Queryable, orgId: string, userIds: string[]): Promise<string[]> {
  const rows = await db.query<{ user_id: string }>('SELECT user_id FROM org_members WHERE org_id = $1 AND user_id = ANY($2)', [
    orgId,
    userIds,
  ]);
  return rows.map((r) => r.user_id);
}

/** Marks a membership as coming from SSO; false when there is no such member. */
export async function markSsoMember(db: Queryable, orgId: string, userId: string): Promise<boolean> {
  const rows = await db.query('UPDATE org_members SET sso = true WHERE org_id = $1 AND user_id = $2 RETURNING user_id', [orgId, userId]);
  return rows.length > 0;
}

/** The user id of a member named by id or email (any case); undefined for anyone else. */
export async function memberIdByRef(db: Queryable, orgId: string, ref: string): Promise<string | undefined> {
  const rows = await db.query<{ user_id: string }>(
    `SELECT m.user_id FROM org_members m JOIN users u ON u.id = m.user_id
     WHERE m.org_id = $1 AND (m.user_id = $2 OR lower(u.email) = lower($2))`,
    [orgId, ref],
  );
  return rows[0]?.user_id;
}

export async function markMemberSeen(db: Queryable, orgId: string, userId: string) {
  await db.query('UPDATE org_members SET last_seen_at = now() WHERE org_id = $1 AND user_id = $2', [orgId, userId]);
}

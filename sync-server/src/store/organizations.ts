import { type MergeRules, type Role, newId } from '@quire/shared';
import { type Queryable, maybeOne, one } from './db';
import { type PageRequest, keysetPage } from './paginate';

export interface OrgRow {
  id: string;
  seq: number;
  title: string;
  email_domains: string[];
  hostname: string | null;
  type: string;
  use_case: string | null;
  community_type: string | null;
  default_role: Role | null;
  default_content: { type: string; site?: string } | null;
  sso: boolean;
  ai: boolean;
  invite_links: boolean;
  logo: string | null;
  merge_rules: MergeRules;
  created_at: Date;
  updated_at: Date;
}

export function getOrg(db: Queryable, id: string) {
  return maybeOne<OrgRow>(db, 'SELECT * FROM organizations WHERE id = $1', [id]);
}

/** Creates an organization with `ownerId` as its admin. */
export async function createOrg(db: Queryable, title: string, ownerId: string, emailDomains: string[] = []): Promise<OrgRow> {
  const org = await one<OrgRow>(db, 'INSERT INTO organizations (id, title, email_domains) VALUES ($1, $2, $3) RETURNING *', [
    newId(),
    title,
    emailDomains,
  ]);
  await db.query("INSERT INTO org_members (org_id, user_id, role) VALUES ($1, $2, 'admin')", [org.id, ownerId]);
  return org;
}

const COLUMNS: Record<string, string> = {
  title: 'title',
  emailDomains: 'email_domains',
  hostname: 'hostname',
  defaultRole: 'default_role',
  defaultContent: 'default_content',
  logo: 'logo',
  sso: 'sso',
  ai: 'ai',
  inviteLinks: 'invite_links',
  mergeRules: 'merge_rules',
};

export async function updateOrg(db: Queryable, id: string, patch: Record<string, unknown>): Promise<OrgRow> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [k, v] of Object.entries(patch)) {
    const col = COLUMNS[k];
    if (!col || v === undefined) continue;
    params.push(col === 'default_content' || col === 'merge_rules' ? (v === null ? null : JSON.stringify(v)) : v);
    sets.push(`${col} = $${params.length}`);
  }
  sets.push('updated_at = now()');
  return one<OrgRow>(db, `UPDATE organizations SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, params);
}

export function orgsWithEmailDomain(db: Queryable, domain: string) {
  return db.query<OrgRow>('SELECT * FROM organizations WHERE $1 = ANY(email_domains) ORDER BY seq', [domain.toLowerCase()]);
}

/** The organizations a user belongs to; a token from a SAML sign-in lists only the one it is limited to. */
export function listOrgsOfUser(db: Queryable, userId: string, tokenId: string | undefined, page: PageRequest) {
  return keysetPage<OrgRow>(
    db,
    {
      columns: 'o.*',
      from: `FROM organizations o JOIN org_members m ON m.org_id = o.id WHERE m.user_id = $1 AND NOT m.disabled
        AND NOT EXISTS (SELECT 1 FROM sso_tokens st WHERE st.token_id = $2 AND st.org_id <> o.id)`,
      params: [userId, tokenId],
      seq: 'o.seq',
    },
    page,
  );
}

export async function hostnameTakenByOtherOrg(db: Queryable, hostname: string, orgId: string): Promise<boolean> {
  return !!(await maybeOne(db, 'SELECT id FROM organizations WHERE hostname = $1 AND id <> $2', [hostname, orgId]));
}

/** Whether the site exists in the organization (false where sites are not installed). */
export async function orgHasSite(db: Queryable, orgId: string, siteId: string): Promise<boolean> {
  const hasSites = await maybeOne<{ t: string }>(db, "SELECT to_regclass('sites')::text AS t");
  return !!hasSites?.t && !!(await maybeOne(db, 'SELECT id FROM sites WHERE id = $1 AND org_id = $2', [siteId, orgId]));
}

export async function deleteLinkInvite(db: Queryable, orgId: string, inviteId: string) {
  await db.query('DELETE FROM link_invites WHERE id = $1 AND org_id = $2', [inviteId, orgId]);
}

/** Forgets a site the organization's default content points at. */
export async function clearDefaultContentSite(db: Queryable, orgId: string, siteId: string) {
  await db.query(`UPDATE organizations SET default_content = NULL WHERE id = $1 AND default_content->>'site' = $2`, [orgId, siteId]);
}

export interface AgentInstructionsRow {
  instructions: unknown;
  updated_at: Date;
  updated_by: string | null;
}

export function getAgentInstructions(db: Queryable, orgId: string) {
  return maybeOne<AgentInstructionsRow>(db, 'SELECT * FROM agent_instructions WHERE org_id = $1', [orgId]);
}

export function putAgentInstructions(db: Queryable, orgId: string, instructions: unknown, userId: string) {
  return one<AgentInstructionsRow>(
    db,
    `INSERT INTO agent_instructions (org_id, instructions, updated_by) VALUES ($1, $2, $3)
     ON CONFLICT (org_id) DO UPDATE SET instructions = EXCLUDED.instructions, updated_by = EXCLUDED.updated_by, updated_at = now()
     RETURNING updated_at, updated_by`,
    [orgId, JSON.stringify(instructions), userId],
  );
}

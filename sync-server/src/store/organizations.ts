import { type MergeRules, type Role, newId } from '@quire/shared';
import { type Queryable, maybeOne, one } from './db';

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

import type { Role } from '@quire/shared';
import type { Queryable } from './db';

export interface GrantRow {
  resource_id: string;
  resource_kind: 'space' | 'collection';
  principal_id: string;
  principal_kind: 'user' | 'team';
  role: Role;
}

/**
 * Grants that reach a user in an organization: their own and their teams', on this
 * organization's spaces and collections only (a grant never crosses organizations, even
 * one left on a resource that has moved).
 */
export function grantsForUser(db: Queryable, orgId: string, userId: string) {
  return db.query<GrantRow>(
    `SELECT g.* FROM grants g
     WHERE ((g.principal_kind = 'user' AND g.principal_id = $2)
         OR (g.principal_kind = 'team' AND g.principal_id IN (
               SELECT tm.team_id FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE tm.user_id = $2 AND t.org_id = $1)))
       AND (EXISTS (SELECT 1 FROM spaces s WHERE s.id = g.resource_id AND s.org_id = $1)
         OR EXISTS (SELECT 1 FROM collections c WHERE c.id = g.resource_id AND c.org_id = $1))`,
    [orgId, userId],
  );
}

export async function setGrant(db: Queryable, g: GrantRow) {
  await db.query(
    `INSERT INTO grants (resource_id, resource_kind, principal_id, principal_kind, role) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (resource_id, principal_id) DO UPDATE SET role = EXCLUDED.role`,
    [g.resource_id, g.resource_kind, g.principal_id, g.principal_kind, g.role],
  );
}

export async function copyGrants(db: Queryable, fromId: string, toId: string) {
  await db.query(
    `INSERT INTO grants (resource_id, resource_kind, principal_id, principal_kind, role)
     SELECT $2, resource_kind, principal_id, principal_kind, role FROM grants WHERE resource_id = $1 ON CONFLICT DO NOTHING`,
    [fromId, toId],
  );
}

/** Drops every grant on a space or collection. */
export async function deleteGrantsOn(db: Queryable, resourceId: string) {
  await db.query('DELETE FROM grants WHERE resource_id = $1', [resourceId]);
}

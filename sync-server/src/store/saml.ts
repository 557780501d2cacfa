import { type Role, newId } from '@quire/shared';
import type { SamlProviderStatus } from '@quire/shared/schemas/saml';
import { type Queryable, maybeOne, one } from './db';
import { type PageRequest, keysetPage } from './paginate';
import { hashToken } from './tokens';

export interface SamlProviderRow {
  id: string;
  seq: number;
  org_id: string;
  label: string;
  entity_id: string;
  certificate: string;
  sso_url: string;
  default_team_id: string | null;
  default_role: Role | null;
  status: SamlProviderStatus;
  created_at: Date;
  updated_at: Date;
}

/** `entityId`, `certificate` and `ssoUrl` are `''` until set. */
export interface SamlProviderFields {
  label: string;
  entityId: string;
  certificate: string;
  ssoUrl: string;
  defaultTeamId: string | null;
  defaultRole: Role | null;
}

/** A provider signs people in once it knows where and whom to trust. */
function statusOf(f: SamlProviderFields): SamlProviderStatus {
  return f.entityId && f.certificate && f.ssoUrl ? 'active' : 'pending';
}

export function getProvider(db: Queryable, orgId: string, id: string) {
  return maybeOne<SamlProviderRow>(db, 'SELECT * FROM saml_providers WHERE org_id = $1 AND id = $2', [orgId, id]);
}

/** A provider by id alone: the service endpoints know no organization until they load it. */
export function getProviderById(db: Queryable, id: string) {
  return maybeOne<SamlProviderRow>(db, 'SELECT * FROM saml_providers WHERE id = $1', [id]);
}

export function listProviders(db: Queryable, orgId: string, page: PageRequest) {
  return keysetPage<SamlProviderRow>(
    db,
    { columns: 'p.*', from: 'FROM saml_providers p WHERE p.org_id = $1', params: [orgId], seq: 'p.seq' },
    page,
  );
}

/** The providers members can sign in with (`active` ones), a page at a time. */
export function listActiveProviders(db: Queryable, orgId: string, page: PageRequest) {
  return keysetPage<SamlProviderRow>(
    db,
    { columns: 'p.*', from: "FROM saml_providers p WHERE p.org_id = $1 AND p.status = 'active'", params: [orgId], seq: 'p.seq' },
    page,
  );
}

export function allProviders(db: Queryable, orgId: string) {
  return db.query<SamlProviderRow>("SELECT * FROM saml_providers WHERE org_id = $1 AND status = 'active' ORDER BY seq", [orgId]);
}

export function insertProvider(db: Queryable, orgId: string, f: SamlProviderFields) {
  return one<SamlProviderRow>(
    db,
    `INSERT INTO saml_providers (id, org_id, label, entity_id, certificate, sso_url, default_team_id, default_role, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
    [newId(), orgId, f.label, f.entityId, f.certificate, f.ssoUrl, f.defaultTeamId, f.defaultRole, statusOf(f)],
  );
}

export function updateProvider(db: Queryable, id: string, f: SamlProviderFields) {
  return one<SamlProviderRow>(
    db,
    `UPDATE saml_providers SET label = $2, entity_id = $3, certificate = $4, sso_url = $5, default_team_id = $6, default_role = $7,
       status = $8,
       updated_at = CASE WHEN (label, entity_id, certificate, sso_url, default_team_id, default_role)
         IS NOT DISTINCT FROM ($2, $3, $4, $5, $6, $7) THEN updated_at ELSE now() END
     WHERE id = $1 RETURNING *`,
    [id, f.label, f.entityId, f.certificate, f.ssoUrl, f.defaultTeamId, f.defaultRole, statusOf(f)],
  );
}

export async function deleteProvider(db: Queryable, orgId: string, id: string) {
  await db.query('DELETE FROM saml_providers WHERE org_id = $1 AND id = $2', [orgId, id]);
}

/** Remembers an AuthnRequest id sent to a provider. */
export async function saveRequest(db: Queryable, providerId: string, requestId: string) {
  await db.query('INSERT INTO saml_requests (id, provider_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [requestId, providerId]);
}

export function getRequest(db: Queryable, providerId: string, requestId: string) {
  return maybeOne<{ id: string; created_at: Date }>(db, 'SELECT id, created_at FROM saml_requests WHERE id = $1 AND provider_id = $2', [
    requestId,
    providerId,
  ]);
}

export async function removeRequest(db: Queryable, requestId: string) {
  const rows = await db.query<{ id: string }>('DELETE FROM saml_requests WHERE id = $1 RETURNING id', [requestId]);
  return rows[0]?.id ?? null;
}

export async function assertionSeen(db: Queryable, providerId: string, assertionId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM saml_seen_assertions WHERE provider_id = $1 AND assertion_id = $2', [providerId, assertionId]);
  return rows.length > 0;
}

/** Records an assertion as consumed; false when it already was (a replay, maybe a concurrent one). */
export async function consumeAssertion(db: Queryable, providerId: string, assertionId: string, expiresAt: Date): Promise<boolean> {
  const rows = await db.query(
    'INSERT INTO saml_seen_assertions (provider_id, assertion_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING assertion_id',
    [providerId, assertionId, expiresAt],
  );
  return rows.length > 0;
}

/** Forgets requests and consumed assertions that can no longer be answered or replayed. */
export async function purgeExpired(db: Queryable, requestMaxAgeMs: number) {
  await db.query('DELETE FROM saml_seen_assertions WHERE expires_at < now()');
  await db.query(`DELETE FROM saml_requests WHERE created_at < now() - ($1::int * interval '1 millisecond')`, [requestMaxAgeMs]);
}

/** Marks a freshly created API token as issued by a sign-in through a provider of an organization. */
export async function recordSsoToken(db: Queryable, token: string, orgId: string, providerId: string, userId: string) {
  await db.query(
    'INSERT INTO sso_tokens (token_id, org_id, provider_id, user_id) SELECT id, $2, $3, $4 FROM api_tokens WHERE token_hash = $1',
    [hashToken(token), orgId, providerId, userId],
  );
}

/** Whether this API token was issued by a single sign-on into this organization. */
/** The organization a token issued by a SAML sign-in is limited to; undefined for other tokens. */
export async function ssoTokenOrg(db: Queryable, tokenId: string): Promise<string | undefined> {
  const rows = await db.query<{ org_id: string }>('SELECT org_id FROM sso_tokens WHERE token_id = $1', [tokenId]);
  return rows[0]?.org_id;
}

export async function isSsoToken(db: Queryable, tokenId: string, orgId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM sso_tokens WHERE token_id = $1 AND org_id = $2', [tokenId, orgId]);
  return rows.length > 0;
}

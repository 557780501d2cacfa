import { ID_PATTERN } from '@quire/shared';
import { badRequest, notFound } from '@quire/shared/domainErrors';
import type { CreateSamlProviderBody, UpdateSamlProviderBody } from '@quire/shared/schemas/saml';
import { REQUEST_MAX_AGE_MS, samlFor } from './serviceProvider';
import { normalizeCertificate } from './x509';
import type { Db, Queryable } from '../../store/db';
import type { Page, PageRequest } from '../../store/paginate';
import * as saml from '../../store/saml';
import type { SamlProviderFields, SamlProviderRow } from '../../store/saml';
import { getTeam, type TeamRow } from '../../store/teams';

/**
 * The SAML identity providers of an organization, as its admins manage them (the caller is
 * already checked to be one), and the lookups of the browser-facing sign-in endpoints.
 */

/** A provider with its default team, as presenting it needs. */
export interface ProviderRead {
  provider: SamlProviderRow;
  team: TeamRow | undefined;
}

async function withTeam(db: Queryable, p: SamlProviderRow): Promise<ProviderRead> {
  return { provider: p, team: p.default_team_id ? await getTeam(db, p.org_id, p.default_team_id) : undefined };
}

/** Checks what zod cannot: the certificate parses, and the team belongs to this organization. */
async function checkedFields(db: Queryable, orgId: string, f: SamlProviderFields): Promise<SamlProviderFields> {
  // Not given yet: the provider stays pending until it is.
  const certificate = f.certificate ? normalizeCertificate(f.certificate) : '';
  if (certificate === undefined) throw badRequest('Invalid body field "certificate": must be an X.509 certificate in PEM or base64.');
  if (f.defaultTeamId && !(await getTeam(db, orgId, f.defaultTeamId))) throw notFound('team');
  return { ...f, certificate };
}

async function requireProvider(db: Queryable, orgId: string, id: string): Promise<SamlProviderRow> {
  const p = await saml.getProvider(db, orgId, id);
  if (!p) throw notFound('provider');
  return p;
}

/** A page of an organization's providers, with the default teams they name. */
export async function listProviders(
  db: Db,
  orgId: string,
  q: PageRequest,
): Promise<{ page: Page<SamlProviderRow>; teams: Map<string, TeamRow | undefined> }> {
  const page = await saml.listProviders(db, orgId, q);
  const teams = new Map(
    await Promise.all(
      [...new Set(page.rows.map((p) => p.default_team_id).filter((t): t is string => !!t))].map(
        async (id) => [id, await getTeam(db, orgId, id)] as const,
      ),
    ),
  );
  return { page, teams };
}

export async function createProvider(db: Db, orgId: string, b: CreateSamlProviderBody): Promise<ProviderRead> {
  const fields = await checkedFields(db, orgId, {
    label: b.label,
    entityId: b.entityID ?? '',
    certificate: b.certificate ?? '',
    ssoUrl: b.ssoURL ?? '',
    defaultTeamId: b.defaultTeam ?? null,
    defaultRole: b.defaultRole === undefined ? 'read' : b.defaultRole,
  });
  return withTeam(db, await saml.insertProvider(db, orgId, fields));
}

export async function readProvider(db: Db, orgId: string, id: string): Promise<ProviderRead> {
  return withTeam(db, await requireProvider(db, orgId, id));
}

/** Changes a provider: what the body leaves out keeps its value, and the whole is checked again. */
export async function updateProvider(db: Db, orgId: string, id: string, b: UpdateSamlProviderBody): Promise<ProviderRead> {
  const p = await requireProvider(db, orgId, id);
  const fields = await checkedFields(db, orgId, {
    label: b.label ?? p.label,
    entityId: b.entityID ?? p.entity_id,
    certificate: b.certificate ?? p.certificate,
    ssoUrl: b.ssoURL ?? p.sso_url,
    defaultTeamId: b.defaultTeam === undefined ? p.default_team_id : b.defaultTeam,
    defaultRole: b.defaultRole === undefined ? p.default_role : b.defaultRole,
  });
  return withTeam(db, await saml.updateProvider(db, p.id, fields));
}

export async function deleteProvider(db: Db, orgId: string, id: string): Promise<void> {
  await saml.deleteProvider(db, orgId, id);
}

/** The active providers of an organization, for its members to pick one to sign in with. */
export function activeProviders(db: Db, orgId: string, q: PageRequest): Promise<Page<SamlProviderRow>> {
  return saml.listActiveProviders(db, orgId, q);
}

/** A provider people sign in with: unknown ids, malformed ones and pending providers look the same. */
export async function activeProvider(db: Db, id: string): Promise<SamlProviderRow> {
  const p = ID_PATTERN.test(id) ? await saml.getProviderById(db, id) : undefined;
  if (!p || p.status !== 'active') throw notFound('identity provider');
  return p;
}

/**
 * Where a sign-in starts: the identity provider's URL for a new request (expired requests
 * are dropped first). `relayState` comes back with the response: it names what the
 * sign-in is for (a desktop app's sign-in), or nothing (a token shown in the browser).
 */
export async function signInUrl(db: Db, p: SamlProviderRow, base: string, relayState = ''): Promise<string> {
  await saml.purgeExpired(db, REQUEST_MAX_AGE_MS);
  return (await samlFor(db, p, base)).getAuthorizeUrlAsync(relayState, undefined, {});
}

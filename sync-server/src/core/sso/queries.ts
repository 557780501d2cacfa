import type { SamlProvider } from '@quire/shared/schemas/saml';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { envelope } from '../views/listing';
import { presentProvider } from '../views/saml';
import type { PageRequest } from '../../store/paginate';
import * as providers from './providers';
import { serviceUrls } from './serviceProvider';

/* The reads of the `/v1` SAML operations: providers for admins, the sign-in choices for members. */

export async function listProviders(ctx: CommandContext, input: { organizationId: string; page: PageRequest }) {
  const { org, access } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId, 'manage');
  const { page, teams } = await providers.listProviders(ctx.deps.db, org.id, input.page);
  return {
    items: page.rows.map((p) => presentProvider(p, p.default_team_id ? teams.get(p.default_team_id) : undefined, access, ctx.baseUrl)),
    count: page.count,
    ...(page.next ? { next: { page: page.next } } : {}),
  };
}

export async function getProvider(ctx: CommandContext, input: { organizationId: string; samlProviderId: string }): Promise<SamlProvider> {
  const { org, access } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId, 'manage');
  const { provider, team } = await providers.readProvider(ctx.deps.db, org.id, input.samlProviderId);
  return presentProvider(provider, team, access, ctx.baseUrl);
}

/** The organization's active providers, for its members to pick one to sign in with. */
export async function listSignInChoices(ctx: CommandContext, input: { organizationId: string; page: PageRequest }) {
  const { org } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId);
  const page = await providers.activeProviders(ctx.deps.db, org.id, input.page);
  return envelope(page, (p) => ({ id: p.id, label: p.label, startURL: serviceUrls(ctx.baseUrl, p.id).startURL }));
}

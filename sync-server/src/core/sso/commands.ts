import type { SamlProvider } from '@quire/shared/schemas/saml';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { presentProvider } from '../views/saml';
import * as providers from './providers';

/*
 * The writes of the `/v1` SAML identity provider operations, one function each, taking the
 * caller's context and the operation's input: identity providers are the organization's
 * admins' (the organization policy's `manage`).
 */

type ProviderRef = { organizationId: string; samlProviderId: string };

export async function createProvider(
  ctx: CommandContext,
  input: { organizationId: string; fields: Parameters<typeof providers.createProvider>[2] },
): Promise<SamlProvider> {
  const { org, access } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId, 'manage');
  const { provider, team } = await providers.createProvider(ctx.deps.db, org.id, input.fields);
  return presentProvider(provider, team, access, ctx.baseUrl);
}

export async function updateProvider(
  ctx: CommandContext,
  input: ProviderRef & { changes: Parameters<typeof providers.updateProvider>[3] },
): Promise<SamlProvider> {
  const { org, access } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId, 'manage');
  const { provider, team } = await providers.updateProvider(ctx.deps.db, org.id, input.samlProviderId, input.changes);
  return presentProvider(provider, team, access, ctx.baseUrl);
}

export async function deleteProvider(ctx: CommandContext, input: ProviderRef): Promise<void> {
  const { org } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId, 'manage');
  await providers.deleteProvider(ctx.deps.db, org.id, input.samlProviderId);
}

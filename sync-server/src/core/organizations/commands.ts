import type { Organization } from '@quire/shared';
import type { CreateOrganizationBody, CreateOrganizationQuery, UpdateOrganizationBody } from '@quire/shared/schemas/organization';
import type { z } from 'zod';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { presentAgentInstructions, presentOrg } from '../views/organization';
import { replaceAgentInstructions } from './agentInstructions';
import { pingOrganization as ping } from './membership';
import { createOrganization as create, updateOrganization as update } from './settings';

/*
 * The writes of the `/v1` organization operations, one function each, taking the caller's
 * context and the operation's input. Settings and agent instructions are the admins'
 * (the organization policy's `manage`).
 */

/** Creates an organization with the caller as its admin (and a default site when asked). */
export async function createOrganization(
  ctx: CommandContext,
  input: { fields: z.output<typeof CreateOrganizationBody>; options: z.output<typeof CreateOrganizationQuery> },
): Promise<Organization> {
  const org = await create(ctx.deps, ctx.userId, input.fields, input.options);
  return presentOrg(org, await ctx.access.org(org.id), ctx.baseUrl);
}

export async function updateOrganization(
  ctx: CommandContext,
  input: { organizationId: string; changes: UpdateOrganizationBody },
): Promise<Organization> {
  const { org, access } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId, 'manage');
  return presentOrg(await update(ctx.deps, org, input.changes), access, ctx.baseUrl);
}

/** Replaces the organization's instructions for AI agents. */
export async function putAgentInstructions(ctx: CommandContext, input: { organizationId: string; instructions: unknown }) {
  const { org } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId, 'manage');
  const row = await replaceAgentInstructions(ctx.deps.db, org.id, input.instructions, ctx.userId);
  return presentAgentInstructions(input.instructions, row, org.id, ctx.baseUrl, true);
}

/** Notes the caller as seen and answers visitor claims the organization's sites accept for an hour. */
export async function pingOrganization(ctx: CommandContext, input: { organizationId: string }) {
  const { org } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId);
  const platformVisitorClaims = await ping(ctx.deps.db, ctx.caller, org, ctx.baseUrl);
  // The public client reads the claims under its own brand's name; both carry the same token.
  return { platformVisitorClaims, gitbookVisitorClaims: platformVisitorClaims };
}

import type { Organization } from '@quire/shared';
import type { ListQuery } from '@quire/shared/schemas/common';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { envelope } from '../views/listing';
import { presentAgentInstructions, presentOrg } from '../views/organization';
import { agentInstructionsOf } from './agentInstructions';
import { organizationsOf, organizationsOfOwnDomain } from './membership';

/** The organizations of the caller (`GET /v1/orgs`). */
export async function listOrganizations(ctx: CommandContext, input: ListQuery) {
  const { page, items } = await organizationsOf(ctx.deps.db, ctx.caller, ctx.access, input);
  return envelope({ ...page, rows: items }, ({ org, access }) => presentOrg(org, access, ctx.baseUrl));
}

/** The organization, as a member sees it. */
export async function getOrganization(ctx: CommandContext, input: { organizationId: string }): Promise<Organization> {
  const { org, access } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId);
  return presentOrg(org, access, ctx.baseUrl);
}

/** The organization's instructions for AI agents: every member reads them. */
export async function getAgentInstructions(ctx: CommandContext, input: { organizationId: string }) {
  const { org, access } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId);
  const row = await agentInstructionsOf(ctx.deps.db, org.id);
  return presentAgentInstructions(row?.instructions, row, org.id, ctx.baseUrl, access.isAdmin);
}

/** The organizations open to the caller's own verified email domain. */
export async function listOrganizationsByEmailDomain(ctx: CommandContext, input: { emailDomain: string }) {
  const found = await organizationsOfOwnDomain(ctx.deps.db, ctx.caller, input.emailDomain);
  return { organizations: found.map(({ org, access }) => presentOrg(org, access, ctx.baseUrl)) };
}

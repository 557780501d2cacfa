import type { ChangeRequestListQuery, OrgChangeRequestListQuery } from '@quire/shared/schemas/changeRequest';
import type { z } from 'zod';
import { orgSeenBy, spaceSeenBy } from '../access/resourceAccess';
import { changeRequestsOfOrg, changeRequestsOfSpace } from '../content/changeRequestWrites';
import type { CommandContext } from '../platform/deps';
import { presentChangeRequests } from '../views/changeRequest';
import { envelope } from '../views/listing';

/*
 * The lists of change requests that both the `/v1` routes and MCP's tools answer with, one
 * function each, taking the caller's context and the operation's input.
 */

/** Change requests of a space (`GET /v1/spaces/{id}/change-requests`). */
export async function listSpaceChangeRequests(ctx: CommandContext, input: { spaceId: string } & z.output<typeof ChangeRequestListQuery>) {
  const { spaceId, ...q } = input;
  const { space, access } = await spaceSeenBy(ctx.deps.db, ctx.access, spaceId, 'view');
  const { page, read } = await changeRequestsOfSpace(ctx.deps.db, space, q);
  return envelope({ ...page, rows: presentChangeRequests(read, access, ctx.baseUrl) }, (x) => x);
}

/** Change requests across the spaces of an organization the caller may see (`GET /v1/orgs/{id}/change-requests`). */
export async function listOrganizationChangeRequests(
  ctx: CommandContext,
  input: { organizationId: string } & z.output<typeof OrgChangeRequestListQuery>,
) {
  const { organizationId, ...q } = input;
  const { org, access } = await orgSeenBy(ctx.deps.db, ctx.access, organizationId);
  const { page, read } = await changeRequestsOfOrg(ctx.deps.db, org, access, q);
  return envelope({ ...page, rows: presentChangeRequests(read, access, ctx.baseUrl) }, (x) => x);
}

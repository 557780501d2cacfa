import type { ListQuery } from '@quire/shared/schemas/common';
import type { CommandContext } from '../platform/deps';
import { envelope } from '../views/listing';
import { presentOrg } from '../views/organization';
import { organizationsOf } from './membership';

/** The organizations of the caller (`GET /v1/orgs`). */
export async function listOrganizations(ctx: CommandContext, input: ListQuery) {
  const { page, items } = await organizationsOf(ctx.deps.db, ctx.caller, ctx.access, input);
  return envelope({ ...page, rows: items }, ({ org, access }) => presentOrg(org, access, ctx.baseUrl));
}

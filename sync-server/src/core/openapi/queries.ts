import type { OpenAPISpec } from '@quire/shared/schemas/openapi';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext, PublicContext } from '../platform/deps';
import { envelope } from '../views/listing';
import { presentSpec } from '../views/openapi';
import type { PageRequest } from '../../store/paginate';
import * as specs from '../../store/openapiSpecs';
import { READ, presentedSpec } from './rules';

/* The reads of the `/v1` OpenAPI specification operations, and the public document. */

/** A page of the organization's specs. */
export async function listSpecs(ctx: CommandContext, input: { organizationId: string; page: PageRequest }) {
  const { db } = ctx.deps;
  const { access } = await orgSeenBy(db, ctx.access, input.organizationId, READ);
  const page = await specs.listSpecs(db, input.organizationId, input.page);
  return envelope(page, (s) => presentSpec(s, access, ctx.baseUrl));
}

/** One spec by its slug. */
export async function getSpec(ctx: CommandContext, input: { organizationId: string; specSlug: string }): Promise<OpenAPISpec> {
  const { db } = ctx.deps;
  await orgSeenBy(db, ctx.access, input.organizationId, READ);
  return presentedSpec(db, ctx.access, input.organizationId, input.specSlug, ctx.baseUrl);
}

/** A public spec's latest processed version, for anyone with the link (no caller); undefined otherwise. */
export async function publicSpecDocument(
  ctx: PublicContext,
  input: { organizationId: string; specSlug: string },
): Promise<{ document: unknown } | undefined> {
  const spec = await specs.getSpecBySlug(ctx.deps.db, input.organizationId, input.specSlug);
  return spec?.visibility === 'public' ? await specs.latestSpecDocument(ctx.deps.db, spec.id) : undefined;
}

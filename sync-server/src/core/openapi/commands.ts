import type { CreateOpenAPISpecBody, OpenAPISource, OpenAPISpec } from '@quire/shared/schemas/openapi';
import { conflict, notFound } from '@quire/shared/domainErrors';
import type { CommandContext, Deps } from '../platform/deps';
import { orgSeenBy } from '../access/resourceAccess';
import * as specs from '../../store/openapiSpecs';
import { scheduleSpecProcessing } from './process';
import { WRITE, presentedSpec } from './rules';

/*
 * The writes of the `/v1` OpenAPI specification operations, one function each, taking the
 * caller's context and the operation's input (who may: rules.ts). Each create or put starts
 * processing in the background (see process.ts).
 */

type Visibility = 'private' | 'public';
type SpecRef = { organizationId: string; specSlug: string };

function start(deps: Deps, specId: string) {
  void scheduleSpecProcessing(deps, specId);
}

/** Creates a spec; 409 when its slug is taken in the organization (a put replaces a source). */
export async function createSpec(
  ctx: CommandContext,
  input: { organizationId: string; fields: CreateOpenAPISpecBody },
): Promise<OpenAPISpec> {
  const { deps } = ctx;
  const { organizationId: orgId, fields: b } = input;
  await orgSeenBy(deps.db, ctx.access, orgId, WRITE);
  const spec = await specs.insertSpec(deps.db, orgId, b.slug, b.source, b.visibility);
  if (!spec)
    throw conflict(`An OpenAPI specification with the slug "${b.slug}" already exists in this organization; PUT it to replace its source.`);
  start(deps, spec.id);
  return presentedSpec(deps.db, ctx.access, orgId, b.slug, ctx.baseUrl);
}

/** Creates the spec with this slug, or replaces its source (and visibility when given). */
export async function putSpec(
  ctx: CommandContext,
  input: SpecRef & { fields: { source: OpenAPISource; visibility?: Visibility } },
): Promise<OpenAPISpec> {
  const { deps } = ctx;
  const { db } = deps;
  const { organizationId: orgId, specSlug: slug, fields: b } = input;
  await orgSeenBy(db, ctx.access, orgId, WRITE);
  // Insert or replace in one statement pair: a concurrent create of the same slug lands in one of the branches.
  const inserted = await specs.insertSpec(db, orgId, slug, b.source, b.visibility);
  const spec = inserted ?? (await specs.getSpecBySlug(db, orgId, slug));
  if (!spec) throw notFound('OpenAPI specification');
  if (!inserted) await specs.replaceSource(db, spec.id, b.source, b.visibility);
  start(deps, spec.id);
  return presentedSpec(db, ctx.access, orgId, slug, ctx.baseUrl);
}

/** Changes who may read a spec's latest document without a token. */
export async function updateSpec(ctx: CommandContext, input: SpecRef & { changes: { visibility: Visibility } }): Promise<OpenAPISpec> {
  const { db } = ctx.deps;
  const { organizationId: orgId, specSlug: slug } = input;
  await orgSeenBy(db, ctx.access, orgId, WRITE);
  const spec = await specs.getSpecBySlug(db, orgId, slug);
  if (!spec) throw notFound('OpenAPI specification');
  await specs.setVisibility(db, spec.id, input.changes.visibility);
  return presentedSpec(db, ctx.access, orgId, slug, ctx.baseUrl);
}

/**
 * Deletes a spec. An unknown slug is nothing to delete (no error, whatever the caller's
 * role); an existing spec needs the right to change specs.
 */
export async function deleteSpec(ctx: CommandContext, input: SpecRef): Promise<void> {
  const { db } = ctx.deps;
  const { organizationId: orgId, specSlug: slug } = input;
  await orgSeenBy(db, ctx.access, orgId);
  if (!(await specs.getSpecBySlug(db, orgId, slug))) return;
  await orgSeenBy(db, ctx.access, orgId, WRITE);
  await specs.deleteSpec(db, orgId, slug);
}

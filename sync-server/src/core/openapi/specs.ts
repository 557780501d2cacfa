import type { CreateOpenAPISpecBody, OpenAPISource } from '@quire/shared/schemas/openapi';
import { conflict, notFound } from '@quire/shared/domainErrors';
import type { Access, OrgAccess } from '../access/callerAccess';
import type { Deps } from '../platform/deps';
import { orgSeenBy } from '../access/resourceAccess';
import type { Db } from '../../store/db';
import type { PageRequest } from '../../store/paginate';
import * as specs from '../../store/openapiSpecs';
import { scheduleSpecProcessing } from './process';

/*
 * An organization's OpenAPI specifications as its members read and change them. Specs are
 * organization content: members with a role read them, guests (no role) do not; creating
 * and changing them is what the organization's `createOpenAPISpec` permission grants.
 * Each create or put starts processing in the background (see process.ts).
 */

const READ = 'readContent' as const;
const WRITE = 'createContent' as const;

type Visibility = 'private' | 'public';

export interface SpecSeen {
  spec: specs.OpenAPISpecRow;
  access: OrgAccess;
}

function start(deps: Deps, specId: string) {
  void scheduleSpecProcessing(deps, specId);
}

/** A spec of an organization the caller is a member of; 404 when there is none with that slug. */
async function specSeenBy(db: Db, access: Access, orgId: string, slug: string): Promise<SpecSeen> {
  const { access: orgAccess } = await orgSeenBy(db, access, orgId);
  const spec = await specs.getSpecBySlug(db, orgId, slug);
  if (!spec) throw notFound('OpenAPI specification');
  return { spec, access: orgAccess };
}

/** A page of the organization's specs. */
export async function specsOf(db: Db, access: Access, orgId: string, page: PageRequest) {
  const { access: orgAccess } = await orgSeenBy(db, access, orgId, READ);
  return { page: await specs.listSpecs(db, orgId, page), access: orgAccess };
}

/** One spec by its slug. */
export async function specOf(db: Db, access: Access, orgId: string, slug: string): Promise<SpecSeen> {
  await orgSeenBy(db, access, orgId, READ);
  return specSeenBy(db, access, orgId, slug);
}

/** Creates a spec; 409 when its slug is taken in the organization (a put replaces a source). */
export async function createSpec(deps: Deps, access: Access, orgId: string, b: CreateOpenAPISpecBody): Promise<SpecSeen> {
  await orgSeenBy(deps.db, access, orgId, WRITE);
  const spec = await specs.insertSpec(deps.db, orgId, b.slug, b.source, b.visibility);
  if (!spec)
    throw conflict(`An OpenAPI specification with the slug "${b.slug}" already exists in this organization; PUT it to replace its source.`);
  start(deps, spec.id);
  return specSeenBy(deps.db, access, orgId, b.slug);
}

/** Creates the spec with this slug, or replaces its source (and visibility when given). */
export async function putSpec(
  deps: Deps,
  access: Access,
  orgId: string,
  slug: string,
  b: { source: OpenAPISource; visibility?: Visibility },
): Promise<SpecSeen> {
  const { db } = deps;
  await orgSeenBy(db, access, orgId, WRITE);
  // Insert or replace in one statement pair: a concurrent create of the same slug lands in one of the branches.
  const inserted = await specs.insertSpec(db, orgId, slug, b.source, b.visibility);
  const spec = inserted ?? (await specs.getSpecBySlug(db, orgId, slug));
  if (!spec) throw notFound('OpenAPI specification');
  if (!inserted) await specs.replaceSource(db, spec.id, b.source, b.visibility);
  start(deps, spec.id);
  return specSeenBy(db, access, orgId, slug);
}

/** Changes who may read a spec's latest document without a token. */
export async function setSpecVisibility(db: Db, access: Access, orgId: string, slug: string, visibility: Visibility): Promise<SpecSeen> {
  await orgSeenBy(db, access, orgId, WRITE);
  const spec = await specs.getSpecBySlug(db, orgId, slug);
  if (!spec) throw notFound('OpenAPI specification');
  await specs.setVisibility(db, spec.id, visibility);
  return specSeenBy(db, access, orgId, slug);
}

/**
 * Deletes a spec. An unknown slug is nothing to delete (no error, whatever the caller's
 * role); an existing spec needs the right to change specs.
 */
export async function deleteSpec(db: Db, access: Access, orgId: string, slug: string): Promise<void> {
  await orgSeenBy(db, access, orgId);
  if (!(await specs.getSpecBySlug(db, orgId, slug))) return;
  await orgSeenBy(db, access, orgId, WRITE);
  await specs.deleteSpec(db, orgId, slug);
}

/** A public spec's latest processed version, for anyone with the link; undefined otherwise. */
export async function publicSpecDocument(db: Db, orgId: string, slug: string): Promise<{ document: unknown } | undefined> {
  const spec = await specs.getSpecBySlug(db, orgId, slug);
  return spec?.visibility === 'public' ? await specs.latestSpecDocument(db, spec.id) : undefined;
}

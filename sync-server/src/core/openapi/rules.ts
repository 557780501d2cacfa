import { notFound } from '@quire/shared/domainErrors';
import type { OpenAPISpec } from '@quire/shared/schemas/openapi';
import type { Access } from '../access/callerAccess';
import { orgSeenBy } from '../access/resourceAccess';
import type { Db } from '../../store/db';
import * as specs from '../../store/openapiSpecs';
import { presentSpec } from '../views/openapi';

/*
 * An organization's OpenAPI specifications are organization content: members with a role
 * read them, guests (no role) do not; creating and changing them is what the
 * organization's `createOpenAPISpec` permission grants (core/policies/organizations.ts).
 */

export const READ = 'readContent' as const;
export const WRITE = 'createContent' as const;

/** A spec of an organization the caller is a member of, presented to them; 404 when there is none with that slug. */
export async function presentedSpec(db: Db, access: Access, orgId: string, slug: string, base: string): Promise<OpenAPISpec> {
  const { access: orgAccess } = await orgSeenBy(db, access, orgId);
  const spec = await specs.getSpecBySlug(db, orgId, slug);
  if (!spec) throw notFound('OpenAPI specification');
  return presentSpec(spec, orgAccess, base);
}

import type { OpenAPISpec } from '@quire/shared/schemas/openapi';
import { mayOrganization } from '../policies/organizations';
import type { OrgAccess } from '../access/callerAccess';
import type { OpenAPISpecRow } from '../../store/openapiSpecs';
import { compact, iso } from './iso';

/** Where a public spec's latest processed document is served without a token. */
export function publishedSpecUrl(base: string, orgId: string, slug: string): string {
  return `${base}/public/openapi/${orgId}/${slug}`;
}

export function presentSpec(s: OpenAPISpecRow, access: OrgAccess, base: string): OpenAPISpec {
  const failed = s.processing_state === 'failed';
  return compact({
    object: 'openapi-spec' as const,
    id: s.id,
    createdAt: iso(s.created_at) as string,
    updatedAt: iso(s.updated_at) as string,
    slug: s.slug,
    sourceURL: s.source_url ?? undefined,
    processingState: s.processing_state,
    visibility: s.visibility,
    lastVersion: s.last_version_id ?? undefined,
    lastProcessedAt: iso(s.last_processed_at),
    lastProcessErrorCode: failed ? (s.last_error_code ?? undefined) : undefined,
    lastProcessedErrors: failed ? (s.last_errors ?? undefined) : undefined,
    lastProcessedErrorCount: failed ? Math.max(s.last_errors?.length ?? 0, 1) : 0,
    permissions: { view: true, edit: mayOrganization(access, 'createContent') },
    urls: compact({
      location: `${base}/v1/orgs/${s.org_id}/openapi/${s.slug}`,
      app: `${base}/app/orgs/${s.org_id}/openapi/${s.slug}`,
      published: s.visibility === 'public' ? publishedSpecUrl(base, s.org_id, s.slug) : undefined,
    }),
  });
}

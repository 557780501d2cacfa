import type { NodeJSON } from '@quire/shared/content/json';
import { computedPageBody } from '../core/openapi/index';
import type { OpenAPIDocument } from '../core/openapi/parse';
import type { Queryable } from '../store/db';
import { getSpecByRef, latestSpecDocument } from '../store/openapiSpecs';

/**
 * Pages of type `builtin:openapi` in a published site: readers see the operations of the
 * page's spec (its latest successful processing), not the page's stored body. A spec is
 * organization content, so the organization comes from the revision's space.
 *
 * Not cached with stored bodies: a spec is processed again independently of the space's
 * revisions (processing bumps the organization's site versions, so rendered pages follow).
 */
export async function openapiPageBody(db: Queryable, revisionId: string, computed: unknown): Promise<NodeJSON | undefined> {
  if (!computed) return undefined;
  const rows = await db.query<{ org_id: string }>('SELECT s.org_id FROM revisions r JOIN spaces s ON s.id = r.space_id WHERE r.id = $1', [
    revisionId,
  ]);
  const orgId = rows[0]?.org_id;
  return orgId ? computedPageBody(db, orgId, computed) : undefined;
}

/** A spec as a page shows it: its document in the author's order, or why there is none. */
export type LoadedSpec =
  | { kind: 'ready'; document: OpenAPIDocument; failedSince?: boolean }
  | { kind: 'failed'; title: string; problems: string[] }
  | { kind: 'pending'; title: string }
  | { kind: 'missing'; title: string };

/**
 * The spec an API reference page or an `openapiOperation` block names: by id or slug, or
 * by the URL it was added from (`{% swagger src="…" %}` blocks name a URL).
 */
export async function loadSpec(db: Queryable, orgId: string, ref: { spec?: unknown; src?: unknown }): Promise<LoadedSpec> {
  let row = typeof ref.spec === 'string' && ref.spec ? await getSpecByRef(db, orgId, ref.spec) : undefined;
  if (!row && typeof ref.src === 'string' && ref.src) {
    const found = await db.query<{ id: string }>(
      'SELECT id FROM openapi_specs WHERE org_id = $1 AND source_url = $2 ORDER BY seq LIMIT 1',
      [orgId, ref.src],
    );
    if (found[0]) row = await getSpecByRef(db, orgId, found[0].id);
  }
  const title = String(ref.spec || ref.src || 'API');
  if (!row) return { kind: 'missing', title };
  const latest = await latestSpecDocument(db, row.id);
  if (latest) return { kind: 'ready', document: latest.document as OpenAPIDocument, failedSince: row.processing_state === 'failed' };
  if (row.processing_state === 'failed')
    return { kind: 'failed', title: row.slug, problems: (row.last_errors ?? []).map((e) => e.message).filter(Boolean) };
  return { kind: 'pending', title: row.slug };
}

import type { NodeJSON } from '@quire/shared/content/json';
import { computedPageBody } from '../core/openapi/index';
import type { OpenAPIDocument } from '../core/openapi/parse';
import type { Queryable } from '../store/db';
import { LRUCache } from 'lru-cache';
import { getSpecByRef, latestSpecDocument, latestSpecVersionId } from '../store/openapiSpecs';

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
  | { kind: 'ready'; document: OpenAPIDocument; versionId: string; failedSince?: boolean }
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
  const latest = await parsedLatest(db, row.id);
  if (latest) return { kind: 'ready', ...latest, failedSince: row.processing_state === 'failed' };
  if (row.processing_state === 'failed')
    return { kind: 'failed', title: row.slug, problems: (row.last_errors ?? []).map((e) => e.message).filter(Boolean) };
  return { kind: 'pending', title: row.slug };
}

/**
 * Parsed documents by version (versions never change): every page of a reference, and its
 * sidebar on every other page, reads the spec, and parsing a large one takes a while.
 */
const parsed = new LRUCache<string, OpenAPIDocument>({ max: 16 });

async function parsedLatest(db: Queryable, specId: string): Promise<{ versionId: string; document: OpenAPIDocument } | undefined> {
  const id = await latestSpecVersionId(db, specId);
  const hit = id ? parsed.get(id) : undefined;
  if (id && hit) return { versionId: id, document: hit };
  const latest = await latestSpecDocument(db, specId);
  if (!latest) return undefined;
  parsed.set(latest.versionId, latest.document as OpenAPIDocument);
  return { versionId: latest.versionId, document: latest.document as OpenAPIDocument };
}

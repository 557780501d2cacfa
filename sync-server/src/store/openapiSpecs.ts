import type { OpenAPIErrorCode, OpenAPIProcessingState } from '@quire/shared/schemas/openapi';
import { newId } from '@quire/shared';
import { type Queryable, maybeOne, one } from './db';
import { type PageRequest, keysetPage } from './paginate';

export interface OpenAPISpecRow {
  id: string;
  seq: number;
  org_id: string;
  slug: string;
  visibility: 'private' | 'public';
  source_url: string | null;
  source_text: string | null;
  processing_state: OpenAPIProcessingState;
  generation: number;
  last_version_id: string | null;
  last_processed_at: Date | null;
  last_error_code: OpenAPIErrorCode | null;
  last_errors: { message: string; code: string }[] | null;
  created_at: Date;
  updated_at: Date;
}

export interface SpecSource {
  url?: string;
  text?: string;
}

/** Every column but the inline source text, which can be large and is only read by processing. */
const COLUMNS = `s.id, s.seq, s.org_id, s.slug, s.visibility, s.source_url, NULL::text AS source_text, s.processing_state,
  s.generation, s.last_version_id, s.last_processed_at, s.last_error_code, s.last_errors, s.created_at, s.updated_at`;

export function getSpecBySlug(db: Queryable, orgId: string, slug: string) {
  return maybeOne<OpenAPISpecRow>(db, `SELECT ${COLUMNS} FROM openapi_specs s WHERE s.org_id = $1 AND s.slug = $2`, [orgId, slug]);
}

/** A spec by id or slug: content references name specs either way. */
export function getSpecByRef(db: Queryable, orgId: string, ref: string) {
  return maybeOne<OpenAPISpecRow>(
    db,
    `SELECT ${COLUMNS} FROM openapi_specs s WHERE s.org_id = $1 AND (s.id = $2 OR s.slug = $2) ORDER BY (s.id = $2) DESC LIMIT 1`,
    [orgId, ref],
  );
}

/** The spec with its inline source, for processing. */
export function getSpecForProcessing(db: Queryable, id: string) {
  return maybeOne<OpenAPISpecRow>(db, 'SELECT * FROM openapi_specs WHERE id = $1', [id]);
}

export function listSpecs(db: Queryable, orgId: string, page: PageRequest) {
  return keysetPage<OpenAPISpecRow>(
    db,
    { columns: COLUMNS, from: 'FROM openapi_specs s WHERE s.org_id = $1', params: [orgId], seq: 's.seq' },
    page,
  );
}

/** Inserts a spec; answers undefined when the slug is already taken in the organization. */
export async function insertSpec(
  db: Queryable,
  orgId: string,
  slug: string,
  source: SpecSource,
  visibility: 'private' | 'public' = 'private',
): Promise<OpenAPISpecRow | undefined> {
  const row = await maybeOne<{ id: string }>(
    db,
    `INSERT INTO openapi_specs (id, org_id, slug, source_url, source_text, visibility) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (org_id, slug) DO NOTHING RETURNING id`,
    [newId(), orgId, slug, source.url ?? null, source.text ?? null, visibility],
  );
  return row ? getSpecBySlug(db, orgId, slug) : undefined;
}

/** Replaces the source and starts a new processing generation. */
export async function replaceSource(db: Queryable, id: string, source: SpecSource, visibility?: 'private' | 'public') {
  await db.query(
    `UPDATE openapi_specs SET source_url = $2, source_text = $3, visibility = COALESCE($4, visibility), processing_state = 'pending',
       generation = generation + 1, updated_at = now() WHERE id = $1`,
    [id, source.url ?? null, source.text ?? null, visibility ?? null],
  );
}

export async function setVisibility(db: Queryable, id: string, visibility: 'private' | 'public') {
  await db.query('UPDATE openapi_specs SET visibility = $2, updated_at = now() WHERE id = $1 AND visibility <> $2', [id, visibility]);
}

export async function deleteSpec(db: Queryable, orgId: string, slug: string) {
  const gone = await db.query('DELETE FROM openapi_specs WHERE org_id = $1 AND slug = $2 RETURNING id', [orgId, slug]);
  if (gone.length) await db.query('UPDATE sites SET version = version + 1 WHERE org_id = $1', [orgId]);
}

/** Moves a generation from pending to progress; false when a newer generation replaced it. */
export async function markInProgress(db: Queryable, id: string, generation: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE openapi_specs SET processing_state = 'progress' WHERE id = $1 AND generation = $2 AND processing_state IN ('pending', 'progress') RETURNING id`,
    [id, generation],
  );
  return rows.length > 0;
}

/** Records a successful processing: a new version becomes the latest. Ignored when a newer generation started meanwhile. */
export async function completeProcessing(db: Queryable, id: string, generation: number, document: unknown, apiVersion: string | null) {
  const version = await one<{ id: string }>(
    db,
    'INSERT INTO openapi_spec_versions (id, spec_id, api_version, document) VALUES ($1, $2, $3, $4) RETURNING id',
    // Kept as the JSON text (a jsonb string): jsonb reorders object keys, and readers expect the author's order.
    [newId(), id, apiVersion, JSON.stringify(JSON.stringify(document))],
  );
  const rows = await db.query(
    `UPDATE openapi_specs SET processing_state = 'complete', last_version_id = $3, last_processed_at = now(), last_error_code = NULL,
       last_errors = NULL, updated_at = now() WHERE id = $1 AND generation = $2 RETURNING id`,
    [id, generation, version.id],
  );
  if (rows.length === 0) await db.query('DELETE FROM openapi_spec_versions WHERE id = $1', [version.id]);
  else await refreshPublishedSites(db, id);
}

/**
 * Published sites render `builtin:openapi` pages from a spec's latest version: a new
 * version (or a deleted spec) moves the version of the organization's sites, so rendered
 * pages cached by site version are rendered again.
 */
async function refreshPublishedSites(db: Queryable, specId: string) {
  await db.query('UPDATE sites SET version = version + 1 WHERE org_id = (SELECT org_id FROM openapi_specs WHERE id = $1)', [specId]);
}

/** Records a failed processing; the last good version stays the one pages render. */
export async function failProcessing(
  db: Queryable,
  id: string,
  generation: number,
  code: OpenAPIErrorCode,
  errors: { message: string; code: string }[],
) {
  await db.query(
    `UPDATE openapi_specs SET processing_state = 'failed', last_error_code = $3, last_errors = $4, updated_at = now()
     WHERE id = $1 AND generation = $2`,
    [id, generation, code, JSON.stringify(errors)],
  );
}

/** The parsed document of a spec's latest successful processing. */
export async function latestSpecDocument(db: Queryable, specId: string): Promise<{ versionId: string; document: unknown } | undefined> {
  const row = await maybeOne<{ id: string; document: unknown }>(
    db,
    `SELECT v.id, v.document FROM openapi_specs s JOIN openapi_spec_versions v ON v.id = s.last_version_id WHERE s.id = $1`,
    [specId],
  );
  if (!row) return undefined;
  // Versions stored before the text form are objects (in jsonb key order).
  return { versionId: row.id, document: typeof row.document === 'string' ? JSON.parse(row.document) : row.document };
}

/** Specs whose processing did not finish (the process stopped meanwhile), to resume on start. */
export function unfinishedSpecs(db: Queryable) {
  return db.query<{ id: string; generation: number }>(
    "SELECT id, generation FROM openapi_specs WHERE processing_state IN ('pending', 'progress') ORDER BY seq",
  );
}

/** The id of a spec's latest successful version (cheap: no document), to find a parsed one in a cache. */
export async function latestSpecVersionId(db: Queryable, specId: string): Promise<string | undefined> {
  const row = await maybeOne<{ id: string }>(db, 'SELECT last_version_id AS id FROM openapi_specs WHERE id = $1', [specId]);
  return row?.id ?? undefined;
}

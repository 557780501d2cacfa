import { newId } from '@quire/shared';
import type { Document } from '@quire/shared';
import type { TRANSLATION_SCHEDULES, TranslationStatus } from '@quire/shared/schemas/translation';

export type TranslationSchedule = (typeof TRANSLATION_SCHEDULES)[number];
import { type Queryable, maybeOne, one } from './db';
import { type PageRequest, keysetPage } from './paginate';

export interface TranslationRow {
  id: string;
  seq: number;
  org_id: string;
  source_space_id: string;
  source_language: string | null;
  language: string;
  instructions: Document | null;
  result_space_id: string | null;
  result_revision_id: string | null;
  status: TranslationStatus;
  error_code: string | null;
  error_message: string | null;
  run_started_at: Date | null;
  /** Until when the run under way holds the translation, unless it renews its claim. */
  lease_until: Date | null;
  rerun: boolean;
  runs: number;
  total_words: number;
  total_pages: number;
  total_duration_ms: number;
  latest_run_duration_ms: number;
  latest_pages: number;
  latest_words: number;
  /** The source revision the last successful run read. */
  source_revision_id: string | null;
  conflicts: TranslationConflict[];
  schedule: TranslationSchedule;
  /** The source space's current revision (joined on read). */
  source_head?: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A result page a run did not overwrite: a person changed it, and its source changed too. */
export interface TranslationConflict {
  page: string;
  title: string;
  message: string;
}

/** What a run wrote into one result page, to tell a person's later fix from its own output. */
export interface TranslatedPageRecord {
  sourceDigest: string;
  sourceBlocks: string[] | null;
  resultBlocks: string[] | null;
  resultTitle: string | null;
}

const WITH_HEAD = 't.*, (SELECT s.revision_id FROM spaces s WHERE s.id = t.source_space_id) AS source_head';

/**
 * How long a run's claim lasts unless renewed: a run renews it every `RUN_LEASE_MS / 4`
 * (`renewRunLease`), so one whose lease ran out died with its process and is taken over.
 */
export const RUN_LEASE_MS = 20_000;
/** A run left `running` from before leases (no `lease_until`) is taken to have died after this. */
const STALE_RUN = "interval '1 hour'";
/** The claim is over: the run's lease ran out, or, from before leases, it started long ago. */
const CLAIM_OVER = `COALESCE(lease_until, run_started_at + ${STALE_RUN}) < now()`;

export function getTranslation(db: Queryable, orgId: string, id: string) {
  return maybeOne<TranslationRow>(db, `SELECT ${WITH_HEAD} FROM translations t WHERE t.org_id = $1 AND t.id = $2`, [orgId, id]);
}

export function getTranslationById(db: Queryable, id: string) {
  return maybeOne<TranslationRow>(db, 'SELECT * FROM translations WHERE id = $1', [id]);
}

/** Translations of an organization, restricted to these source spaces when given. */
export function listTranslations(db: Queryable, orgId: string, visibleSpaceIds: string[] | undefined, page: PageRequest) {
  const params: unknown[] = [orgId];
  let where = 'WHERE t.org_id = $1';
  if (visibleSpaceIds) {
    params.push(visibleSpaceIds);
    where += ` AND t.source_space_id = ANY($${params.length})`;
  }
  return keysetPage<TranslationRow>(db, { columns: WITH_HEAD, from: `FROM translations t ${where}`, params, seq: 't.seq' }, page);
}

export function insertTranslation(
  db: Queryable,
  orgId: string,
  f: {
    sourceSpaceId: string;
    sourceLanguage: string | null;
    language: string;
    instructions: Document | null;
    schedule?: TranslationSchedule;
  },
) {
  return one<TranslationRow>(
    db,
    `INSERT INTO translations (id, org_id, source_space_id, source_language, language, instructions, schedule)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [
      newId(),
      orgId,
      f.sourceSpaceId,
      f.sourceLanguage,
      f.language,
      f.instructions ? JSON.stringify(f.instructions) : null,
      f.schedule ?? 'manual',
    ],
  );
}

export async function setSchedule(db: Queryable, id: string, schedule: TranslationSchedule) {
  await db.query('UPDATE translations SET schedule = $2, updated_at = now() WHERE id = $1 AND schedule <> $2', [id, schedule]);
}

const SCHEDULE_INTERVAL: Record<Exclude<TranslationSchedule, 'manual'>, string> = { hourly: '1 hour', daily: '1 day', weekly: '7 days' };

/**
 * Scheduled translations due for a run at `now`: out of date (their source has a revision
 * the last completed run did not read), not under way, and not run within their interval.
 */
export async function dueScheduledTranslations(db: Queryable, now: Date): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT t.id FROM translations t JOIN spaces s ON s.id = t.source_space_id
     WHERE t.schedule <> 'manual' AND t.status IN ('completed', 'failed')
       AND s.revision_id IS NOT NULL AND s.revision_id IS DISTINCT FROM t.source_revision_id
       AND t.updated_at <= $1::timestamptz - (CASE t.schedule ${Object.entries(SCHEDULE_INTERVAL)
         .map(([k, v]) => `WHEN '${k}' THEN interval '${v}'`)
         .join(' ')} END)
     ORDER BY t.seq`,
    [now.toISOString()],
  );
  return rows.map((r) => r.id);
}

export async function setInstructions(db: Queryable, id: string, instructions: Document) {
  await db.query(
    'UPDATE translations SET instructions = $2, updated_at = now() WHERE id = $1 AND instructions IS DISTINCT FROM $2::jsonb',
    [id, JSON.stringify(instructions)],
  );
}

export async function deleteTranslation(db: Queryable, orgId: string, id: string) {
  await db.query('DELETE FROM translations WHERE org_id = $1 AND id = $2', [orgId, id]);
}

/**
 * A run was asked for: the translation shows `pending` until a run claims it, or, while a
 * run is under way, that run is asked to go again. Done before the request is answered, so
 * a caller reading right after never sees the previous run's outcome as this one's.
 * A pending request holds a lease too: the instance that asked claims the run at once, so
 * one still pending when it runs out was asked of an instance that died first, and another
 * takes it over. (A translation never asked to run is pending with no lease: left alone.)
 */
export async function requestRun(db: Queryable, id: string) {
  await db.query(
    `UPDATE translations SET status = CASE WHEN status = 'running' THEN status ELSE 'pending' END,
       lease_until = CASE WHEN status = 'running' THEN lease_until ELSE now() + make_interval(secs => $2::double precision / 1000) END,
       rerun = (status = 'running'), updated_at = now()
     WHERE id = $1`,
    [id, RUN_LEASE_MS],
  );
}

/**
 * Claims the right to run: the translation becomes `running`, unless a live run holds it,
 * in which case that run is asked to go again when it ends. Answers the row when claimed.
 */
export async function claimRun(db: Queryable, id: string, opts: { takeover?: boolean } = {}): Promise<TranslationRow | undefined> {
  const claimed = await maybeOne<TranslationRow>(
    db,
    `UPDATE translations SET status = 'running', run_started_at = date_trunc('milliseconds', clock_timestamp()), rerun = false, updated_at = now(),
       lease_until = now() + make_interval(secs => $2::double precision / 1000)
     WHERE id = $1 AND (CASE WHEN $3::boolean THEN status IN ('pending', 'running') AND ${CLAIM_OVER} ELSE status <> 'running' OR ${CLAIM_OVER} END)
     RETURNING *`,
    [id, RUN_LEASE_MS, opts.takeover === true],
  );
  // A takeover found the run live again (or already taken): nothing was asked of it.
  if (!claimed && !opts.takeover) await db.query("UPDATE translations SET rerun = true WHERE id = $1 AND status = 'running'", [id]);
  return claimed;
}

/**
 * Renews the lease of the run that started at `startedAt`; answers false when that run no
 * longer holds the translation (its lease ran out and another instance took it over).
 */
export async function renewRunLease(db: Queryable, id: string, startedAt: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE translations SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
     WHERE id = $1 AND status = 'running' AND run_started_at = $2 RETURNING id`,
    [id, startedAt, RUN_LEASE_MS],
  );
  return rows.length > 0;
}

/**
 * Runs no process is doing: running, or asked for and not yet claimed, with their lease run
 * out (their instance died). Whoever claims one first resumes (or starts) it.
 */
export async function abandonedRuns(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM translations WHERE status IN ('pending', 'running') AND ${CLAIM_OVER} ORDER BY seq`,
  );
  return rows.map((r) => r.id);
}

export async function setResultSpace(db: Queryable, id: string, spaceId: string) {
  await db.query('UPDATE translations SET result_space_id = $2 WHERE id = $1', [id, spaceId]);
}

export interface RunOutcome {
  durationMs: number;
  pages: number;
  words: number;
  resultRevisionId?: string | null;
  /** The source revision the run read (successful runs). */
  sourceRevisionId?: string | null;
  conflicts?: TranslationConflict[];
  error?: { code: string; message: string };
}

/**
 * Ends the run that started at `startedAt` with its outcome and stats; answers whether
 * another run was asked for meanwhile. A run another instance took over (this one's lease
 * ran out) records nothing: the run that holds the translation now does.
 */
export async function finishRun(db: Queryable, id: string, o: RunOutcome, startedAt: Date | null): Promise<boolean> {
  const row = await maybeOne<{ rerun: boolean }>(
    db,
    `UPDATE translations SET
       status = CASE WHEN rerun THEN 'pending' ELSE $2::text END, error_code = $3, error_message = $4,
       lease_until = CASE WHEN rerun THEN now() + make_interval(secs => $12::double precision / 1000) END,
       result_revision_id = COALESCE($5, result_revision_id),
       source_revision_id = COALESCE($9, source_revision_id), conflicts = COALESCE($10::jsonb, conflicts),
       runs = runs + 1, total_words = total_words + $6, total_pages = total_pages + $7, total_duration_ms = total_duration_ms + $8,
       latest_run_duration_ms = $8, latest_pages = $7, latest_words = $6, run_started_at = NULL, updated_at = now()
     WHERE id = $1 AND run_started_at IS NOT DISTINCT FROM $11 RETURNING rerun`,
    [
      id,
      o.error ? 'failed' : 'completed',
      o.error?.code ?? null,
      o.error?.message ?? null,
      o.resultRevisionId ?? null,
      o.words,
      o.pages,
      Math.round(o.durationMs),
      o.sourceRevisionId ?? null,
      o.conflicts ? JSON.stringify(o.conflicts) : null,
      startedAt,
      RUN_LEASE_MS,
    ],
  );
  return !!row?.rerun;
}

/** What the last runs recorded of each page. */
export async function translatedPages(db: Queryable, id: string): Promise<Map<string, TranslatedPageRecord>> {
  const rows = await db.query<{
    page_id: string;
    source_digest: string;
    source_blocks: string[] | null;
    result_blocks: string[] | null;
    result_title: string | null;
  }>('SELECT page_id, source_digest, source_blocks, result_blocks, result_title FROM translation_pages WHERE translation_id = $1', [id]);
  return new Map(
    rows.map((r) => [
      r.page_id,
      { sourceDigest: r.source_digest, sourceBlocks: r.source_blocks, resultBlocks: r.result_blocks, resultTitle: r.result_title },
    ]),
  );
}

export async function recordPages(db: Queryable, id: string, pages: Map<string, TranslatedPageRecord>, removed: string[]) {
  if (removed.length) await db.query('DELETE FROM translation_pages WHERE translation_id = $1 AND page_id = ANY($2)', [id, removed]);
  for (const [pageId, p] of pages) {
    await db.query(
      `INSERT INTO translation_pages (translation_id, page_id, source_digest, source_blocks, result_blocks, result_title)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (translation_id, page_id) DO UPDATE SET source_digest = EXCLUDED.source_digest,
         source_blocks = EXCLUDED.source_blocks, result_blocks = EXCLUDED.result_blocks, result_title = EXCLUDED.result_title`,
      [
        id,
        pageId,
        p.sourceDigest,
        p.sourceBlocks ? JSON.stringify(p.sourceBlocks) : null,
        p.resultBlocks ? JSON.stringify(p.resultBlocks) : null,
        p.resultTitle,
      ],
    );
  }
}

export async function forgetPages(db: Queryable, id: string) {
  await db.query('DELETE FROM translation_pages WHERE translation_id = $1', [id]);
}

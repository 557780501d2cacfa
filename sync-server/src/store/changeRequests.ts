import type { Document } from '@quire/shared';
import { type Queryable, maybeOne, one } from './db';
import { type PageRequest, keysetPage } from './paginate';
import type { UserRow } from './users';

export type ChangeRequestStatus = 'draft' | 'open' | 'merged' | 'archived';
export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'merged', 'archived'] as const;

export interface ChangeRequestRow {
  id: string;
  seq: number;
  space_id: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string | null;
  description: Document | null;
  agent_task_id: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  revision_id: string;
  revision_initial: string;
  revision_merged_ancestor: string;
  revision_merged: string | null;
  merged_at: Date | null;
  merged_by: string | null;
  fork_doc_seq: number;
  fork_state_vector: Uint8Array;
}

const bytes = (v: Uint8Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

function normalize(r: ChangeRequestRow): ChangeRequestRow {
  r.seq = Number(r.seq);
  r.number = Number(r.number);
  r.fork_doc_seq = Number(r.fork_doc_seq);
  r.fork_state_vector = new Uint8Array(r.fork_state_vector.buffer, r.fork_state_vector.byteOffset, r.fork_state_vector.byteLength);
  return r;
}

export async function getChangeRequest(db: Queryable, id: string): Promise<ChangeRequestRow | undefined> {
  const row = await maybeOne<ChangeRequestRow>(db, 'SELECT * FROM change_requests WHERE id = $1', [id]);
  return row && normalize(row);
}

/**
 * A change request of a space by its id or, when `ref` is all digits, by its number;
 * one of another space is not found.
 */
export async function findChangeRequest(db: Queryable, spaceId: string, ref: string): Promise<ChangeRequestRow | undefined> {
  const byNumber = /^\d{1,9}$/.test(ref);
  const row = byNumber
    ? await maybeOne<ChangeRequestRow>(
        db,
        'SELECT * FROM change_requests WHERE space_id = $1 AND (number = $2::int OR id = $3) ORDER BY (id = $3) DESC LIMIT 1',
        [spaceId, Number(ref), ref],
      )
    : await maybeOne<ChangeRequestRow>(db, 'SELECT * FROM change_requests WHERE space_id = $1 AND id = $2', [spaceId, ref]);
  return row && normalize(row);
}

/** Locks a change request's row for the rest of the transaction (merge, update, status changes). */
export async function lockChangeRequest(db: Queryable, id: string): Promise<ChangeRequestRow | undefined> {
  const row = await maybeOne<ChangeRequestRow>(db, 'SELECT * FROM change_requests WHERE id = $1 FOR UPDATE', [id]);
  return row && normalize(row);
}

export interface NewChangeRequest {
  id: string;
  spaceId: string;
  subject: string | null;
  agentTaskId: string | null;
  createdBy: string;
  revisionId: string;
  revisionInitial: string;
  forkDocSeq: number;
  forkStateVector: Uint8Array;
}

/** Inserts a change request with the next number of its space (the space row is locked meanwhile). */
export async function insertChangeRequest(db: Queryable, n: NewChangeRequest): Promise<ChangeRequestRow> {
  await db.query('SELECT id FROM spaces WHERE id = $1 FOR UPDATE', [n.spaceId]);
  const row = await one<ChangeRequestRow>(
    db,
    `INSERT INTO change_requests (id, space_id, number, subject, agent_task_id, created_by, revision_id, revision_initial,
       revision_merged_ancestor, fork_doc_seq, fork_state_vector)
     VALUES ($1, $2, (SELECT coalesce(max(number), 0) + 1 FROM change_requests WHERE space_id = $2), $3, $4, $5, $6, $7, $7, $8, $9)
     RETURNING *`,
    [n.id, n.spaceId, n.subject, n.agentTaskId, n.createdBy, n.revisionId, n.revisionInitial, n.forkDocSeq, bytes(n.forkStateVector)],
  );
  await addContributor(db, n.id, n.createdBy);
  return normalize(row);
}

const PATCH_COLUMNS: Record<string, string> = { subject: 'subject', description: 'description', status: 'status' };

export async function updateChangeRequest(db: Queryable, id: string, patch: Record<string, unknown>): Promise<ChangeRequestRow> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [k, v] of Object.entries(patch)) {
    const col = PATCH_COLUMNS[k];
    if (!col || v === undefined) continue;
    params.push(col === 'description' ? JSON.stringify(v) : v);
    sets.push(`${col} = $${params.length}`);
  }
  sets.push('updated_at = now()');
  return normalize(await one<ChangeRequestRow>(db, `UPDATE change_requests SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, params));
}

/** The branch's head moved (edits, import, update from main). */
export async function setChangeRequestHead(db: Queryable, id: string, revisionId: string) {
  await db.query('UPDATE change_requests SET revision_id = $2, updated_at = now() WHERE id = $1 AND revision_id <> $2', [id, revisionId]);
}

/**
 * Main's content at `mainRevisionId` was taken into the branch. The fork state vector
 * stays: it only bounds what a merge re-sends, and an older one is merely larger.
 */
export async function markUpdated(db: Queryable, id: string, mainRevisionId: string) {
  await db.query('UPDATE change_requests SET revision_merged_ancestor = $2, updated_at = now() WHERE id = $1', [id, mainRevisionId]);
}

export async function markMerged(db: Queryable, id: string, mergedRevisionId: string, userId: string) {
  return normalize(
    await one<ChangeRequestRow>(
      db,
      `UPDATE change_requests SET status = 'merged', revision_merged = $2, merged_at = now(), merged_by = $3, updated_at = now()
       WHERE id = $1 RETURNING *`,
      [id, mergedRevisionId, userId],
    ),
  );
}

export interface ChangeRequestFilter {
  /** One space, or every space of an organization the caller sees. */
  spaceIds: string[];
  /** Any of these statuses. */
  status?: ChangeRequestStatus[];
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  orderBy?: 'createdAt' | 'updatedAt';
  /** Matches nothing: filters on things this server does not have. */
  none?: boolean;
}

export async function listChangeRequests(db: Queryable, f: ChangeRequestFilter, page: PageRequest) {
  const params: unknown[] = [f.spaceIds];
  let where = 'WHERE cr.space_id = ANY($1)';
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where += ` AND ${sql.replace('?', `$${params.length}`)}`;
  };
  if (f.none) where += ' AND false';
  if (f.status?.length) add('cr.status = ANY(?)', f.status);
  if (f.creator) add('cr.created_by = ?', f.creator);
  if (f.contributor)
    add('EXISTS (SELECT 1 FROM change_request_contributors c WHERE c.change_request_id = cr.id AND c.user_id = ?)', f.contributor);
  if (f.requestedReviewer)
    add('EXISTS (SELECT 1 FROM change_request_reviewers r WHERE r.change_request_id = cr.id AND r.user_id = ?)', f.requestedReviewer);
  const sort = f.orderBy === 'updatedAt' ? { expr: 'cr.updated_at', type: 'timestamptz' } : undefined;
  const result = await keysetPage<ChangeRequestRow>(
    db,
    { columns: 'cr.*', from: `FROM change_requests cr ${where}`, params, seq: 'cr.seq', order: 'desc', sort },
    page,
  );
  result.rows = result.rows.map(normalize);
  return result;
}

export async function addContributor(db: Queryable, changeRequestId: string, userId: string) {
  await db.query('INSERT INTO change_request_contributors (change_request_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    changeRequestId,
    userId,
  ]);
}

/** Users by id, for presenting creators, reviewers and contributors in one round trip. */
export async function usersByIds(db: Queryable, ids: (string | null | undefined)[]): Promise<Map<string, UserRow>> {
  const wanted = [...new Set(ids.filter((i): i is string => !!i))];
  if (!wanted.length) return new Map();
  const rows = await db.query<UserRow>('SELECT * FROM users WHERE id = ANY($1)', [wanted]);
  return new Map(rows.map((u) => [u.id, u]));
}

/** Change request counters of several spaces, for the Space resource. */
export async function changeRequestCountsBySpace(db: Queryable, spaceIds: string[]) {
  if (!spaceIds.length) return new Map<string, { total: number; open: number; draft: number }>();
  const rows = await db.query<{ space_id: string; total: number; open: number; draft: number }>(
    `SELECT space_id, count(*)::int AS total, count(*) FILTER (WHERE status = 'open')::int AS open,
            count(*) FILTER (WHERE status = 'draft')::int AS draft
     FROM change_requests WHERE space_id = ANY($1) GROUP BY space_id`,
    [spaceIds],
  );
  return new Map(rows.map((r) => [r.space_id, { total: Number(r.total), open: Number(r.open), draft: Number(r.draft) }]));
}

// Reviews and requested reviewers.

export interface ReviewRow {
  id: string;
  seq: number;
  change_request_id: string;
  reviewer_id: string;
  status: 'approved' | 'changes-requested';
  revision_id: string;
  /** `{markdown}`; reviews stored before comment bodies were kept as a Document. */
  comment: { markdown: string } | Document | null;
  created_at: Date;
}

export async function insertReview(
  db: Queryable,
  r: {
    id: string;
    changeRequestId: string;
    reviewerId: string;
    status: ReviewRow['status'];
    revisionId: string;
    comment?: { markdown: string };
  },
): Promise<ReviewRow> {
  return one<ReviewRow>(
    db,
    `INSERT INTO change_request_reviews (id, change_request_id, reviewer_id, status, revision_id, comment)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [r.id, r.changeRequestId, r.reviewerId, r.status, r.revisionId, r.comment ? JSON.stringify(r.comment) : null],
  );
}

/** A change request's reviews; `outdated` keeps those of an earlier revision than `currentRevision` (true) or of it (false). */
export function listReviews(db: Queryable, changeRequestId: string, f: { outdated?: boolean; currentRevision: string }, page: PageRequest) {
  const params: unknown[] = [changeRequestId];
  let where = 'WHERE rv.change_request_id = $1';
  if (f.outdated !== undefined) {
    params.push(f.currentRevision);
    where += ` AND rv.revision_id ${f.outdated ? '<>' : '='} $2`;
  }
  return keysetPage<ReviewRow>(db, { columns: 'rv.*', from: `FROM change_request_reviews rv ${where}`, params, seq: 'rv.seq' }, page);
}

export function getReview(db: Queryable, changeRequestId: string, id: string) {
  return maybeOne<ReviewRow>(db, 'SELECT * FROM change_request_reviews WHERE change_request_id = $1 AND id = $2', [changeRequestId, id]);
}

/** Who requested each requested reviewer of a change request. */
export async function requesters(db: Queryable, changeRequestId: string): Promise<Map<string, string | null>> {
  const rows = await db.query<{ user_id: string; requested_by: string | null }>(
    'SELECT user_id, requested_by FROM change_request_reviewers WHERE change_request_id = $1',
    [changeRequestId],
  );
  return new Map(rows.map((r) => [r.user_id, r.requested_by]));
}

/** Each reviewer's latest review. */
export function latestReviews(db: Queryable, changeRequestId: string) {
  return db.query<ReviewRow>(
    `SELECT DISTINCT ON (reviewer_id) * FROM change_request_reviews WHERE change_request_id = $1 ORDER BY reviewer_id, seq DESC`,
    [changeRequestId],
  );
}

export interface ReviewerRow {
  change_request_id: string;
  user_id: string;
  seq: number;
  requested_by: string | null;
  requested_at: Date;
}

export async function addRequestedReviewers(db: Queryable, changeRequestId: string, userIds: string[], requestedBy: string) {
  for (const u of userIds) {
    await db.query(
      `INSERT INTO change_request_reviewers (change_request_id, user_id, requested_by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [changeRequestId, u, requestedBy],
    );
  }
}

export async function removeRequestedReviewer(db: Queryable, changeRequestId: string, userId: string) {
  await db.query('DELETE FROM change_request_reviewers WHERE change_request_id = $1 AND user_id = $2', [changeRequestId, userId]);
}

export function getRequestedReviewer(db: Queryable, changeRequestId: string, userId: string) {
  return maybeOne<ReviewerRow>(db, 'SELECT * FROM change_request_reviewers WHERE change_request_id = $1 AND user_id = $2', [
    changeRequestId,
    userId,
  ]);
}

export function listRequestedReviewers(db: Queryable, changeRequestId: string, page: PageRequest) {
  return keysetPage<ReviewerRow>(
    db,
    { columns: 'rr.*', from: 'FROM change_request_reviewers rr WHERE rr.change_request_id = $1', params: [changeRequestId], seq: 'rr.seq' },
    page,
  );
}

/** Counts a change request's opened comments; set by the feature that owns comments. */
export type ChangeRequestCommentCounter = (db: Queryable, changeRequestIds: string[]) => Promise<Map<string, number>>;
let commentCounter: ChangeRequestCommentCounter | undefined;

/** Lets the comments feature supply the `comments` count of change requests without this module knowing its tables. */
export function countChangeRequestCommentsWith(counter: ChangeRequestCommentCounter) {
  commentCounter = counter;
}

export async function changeRequestCommentCounts(db: Queryable, changeRequestIds: string[]): Promise<Map<string, number>> {
  return commentCounter && changeRequestIds.length ? commentCounter(db, changeRequestIds) : new Map();
}

export async function isRequestedReviewer(db: Queryable, changeRequestId: string, userId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM change_request_reviewers WHERE change_request_id = $1 AND user_id = $2', [
    changeRequestId,
    userId,
  ]);
  return rows.length > 0;
}

/** Spaces a site of the organization publishes (none when this server has no sites table). */
export async function spaceIdsOfSite(db: Queryable, orgId: string, siteId: string): Promise<string[]> {
  const hasSites = await maybeOne<{ t: string | null }>(db, "SELECT to_regclass('site_spaces')::text AS t");
  if (!hasSites?.t) return [];
  const rows = await db.query<{ space_id: string }>(
    'SELECT ss.space_id FROM site_spaces ss JOIN sites s ON s.id = ss.site_id WHERE ss.site_id = $1 AND s.org_id = $2',
    [siteId, orgId],
  );
  return rows.map((r) => r.space_id);
}

import { type Queryable, maybeOne, one } from './db';

/** A revision row without its (possibly large) state and materialized content. */
export interface RevisionHead {
  id: string;
  seq: number;
  space_id: string;
  change_request_id: string | null;
  branch: string;
  parents: string[];
  type: string;
  created_by: string | null;
  created_at: Date;
  doc_seq: number;
  state_base: string | null;
}

export interface RevisionRow extends RevisionHead {
  state: Uint8Array;
  /** JSON the reads serve; a patch over the base's when `state_base` is set. */
  materialized: unknown;
}

export interface NewRevision {
  id: string;
  spaceId: string;
  changeRequestId: string | null;
  branch: string;
  parents: string[];
  type: string;
  createdBy: string | null;
  docSeq: number;
  state: Uint8Array;
  stateBase: string | null;
  materialized: unknown;
}

const HEAD_COLUMNS = 'id, seq, space_id, change_request_id, branch, parents, type, created_by, created_at, doc_seq, state_base';

const bytes = (v: Uint8Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const u8 = (v: Uint8Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

function normalizeHead<T extends RevisionHead>(r: T): T {
  r.seq = Number(r.seq);
  r.doc_seq = Number(r.doc_seq);
  return r;
}

function normalize(r: RevisionRow): RevisionRow {
  normalizeHead(r);
  r.state = u8(r.state);
  return r;
}

export async function getRevision(db: Queryable, id: string): Promise<RevisionRow | undefined> {
  const row = await maybeOne<RevisionRow>(db, 'SELECT * FROM revisions WHERE id = $1', [id]);
  return row && normalize(row);
}

export async function getRevisionHead(db: Queryable, id: string): Promise<RevisionHead | undefined> {
  const row = await maybeOne<RevisionHead>(db, `SELECT ${HEAD_COLUMNS} FROM revisions WHERE id = $1`, [id]);
  return row && normalizeHead(row);
}

/** The newest revision of a branch (by its Y doc id). */
export async function latestRevisionHead(db: Queryable, branch: string): Promise<RevisionHead | undefined> {
  const row = await maybeOne<RevisionHead>(db, `SELECT ${HEAD_COLUMNS} FROM revisions WHERE branch = $1 ORDER BY seq DESC LIMIT 1`, [
    branch,
  ]);
  return row && normalizeHead(row);
}

export async function insertRevision(db: Queryable, r: NewRevision): Promise<RevisionHead> {
  const row = await one<RevisionHead>(
    db,
    `INSERT INTO revisions (id, space_id, change_request_id, branch, parents, type, created_by, doc_seq, state, state_base, materialized)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${HEAD_COLUMNS}`,
    [
      r.id,
      r.spaceId,
      r.changeRequestId,
      r.branch,
      r.parents,
      r.type,
      r.createdBy,
      r.docSeq,
      bytes(r.state),
      r.stateBase,
      JSON.stringify(r.materialized),
    ],
  );
  return normalizeHead(row);
}

/**
 * Records that a revision also covers later updates of its branch that changed nothing
 * (a client re-sending what the server had), so they are not looked at again.
 */
export async function extendRevisionDocSeq(db: Queryable, id: string, docSeq: number) {
  await db.query('UPDATE revisions SET doc_seq = GREATEST(doc_seq, $2) WHERE id = $1', [id, docSeq]);
}

/** Size in bytes of a revision's stored state, to decide when a new whole state pays off. */
export async function revisionStateSize(db: Queryable, id: string): Promise<number> {
  const row = await maybeOne<{ n: number }>(db, 'SELECT octet_length(state)::int AS n FROM revisions WHERE id = $1', [id]);
  return Number(row?.n ?? 0);
}

/** Moves the space's pointer to its main branch's current revision (its content changed). */
export async function setSpaceRevision(db: Queryable, spaceId: string, revisionId: string) {
  await db.query('UPDATE spaces SET revision_id = $2, updated_at = now() WHERE id = $1', [spaceId, revisionId]);
}

/** Only a revision's stored state and its base: what rebuilding its document needs. */
export async function getRevisionState(db: Queryable, id: string): Promise<{ state: Uint8Array; state_base: string | null } | undefined> {
  const row = await maybeOne<{ state: Uint8Array; state_base: string | null }>(
    db,
    'SELECT state, state_base FROM revisions WHERE id = $1',
    [id],
  );
  return row && { state: u8(row.state), state_base: row.state_base };
}

/** Variables and reusable contents of a revision's stored content (small, always stored whole). */
export async function getRevisionSmallParts(db: Queryable, id: string) {
  return maybeOne<{ variables: unknown; reusable_contents: unknown }>(
    db,
    `SELECT materialized->'variables' AS variables, materialized->'reusableContents' AS reusable_contents FROM revisions WHERE id = $1`,
    [id],
  );
}

import { createHash } from 'node:crypto';
import { type Queryable, maybeOne } from './db';

export interface BlobRow {
  hash: string;
  content: Uint8Array;
  size: number;
  content_type: string;
}

/** SHA-256 (hex) of some bytes: the address a blob is stored under. */
export function blobHash(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Stores bytes once per content; returns their hash. */
export async function putBlob(db: Queryable, content: Uint8Array, contentType: string): Promise<string> {
  const hash = blobHash(content);
  await db.query('INSERT INTO files_blobs (hash, content, size, content_type) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING', [
    hash,
    Buffer.from(content.buffer, content.byteOffset, content.byteLength),
    content.byteLength,
    contentType,
  ]);
  return hash;
}

export async function getBlob(db: Queryable, hash: string): Promise<BlobRow | undefined> {
  const row = await maybeOne<BlobRow>(db, 'SELECT hash, content, size, content_type FROM files_blobs WHERE hash = $1', [hash]);
  if (!row) return undefined;
  return { ...row, size: Number(row.size), content: new Uint8Array(row.content.buffer, row.content.byteOffset, row.content.byteLength) };
}

/** Rows per statement of the batched writes below (four parameters each, far under PostgreSQL's limit). */
const BATCH = 500;

/** `($1, $2), ($3, $4)`: the VALUES of `rows` rows of `width` parameters. */
function valuesOf(rows: number, width: number): string {
  return Array.from({ length: rows }, (_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`).join(
    ', ',
  );
}

/** Stores many contents, a few statements in all (an import's images and pages); answers their hashes in order. */
export async function putBlobs(db: Queryable, items: { content: Uint8Array; contentType: string }[]): Promise<string[]> {
  const hashes = items.map((i) => blobHash(i.content));
  const unique = new Map<string, { content: Uint8Array; contentType: string }>();
  items.forEach((item, i) => unique.set(hashes[i] as string, item));
  const rows = [...unique];
  for (let at = 0; at < rows.length; at += BATCH) {
    const chunk = rows.slice(at, at + BATCH);
    await db.query(
      `INSERT INTO files_blobs (hash, content, size, content_type) VALUES ${valuesOf(chunk.length, 4)} ON CONFLICT (hash) DO NOTHING`,
      chunk.flatMap(([hash, { content, contentType }]) => [
        hash,
        Buffer.from(content.buffer, content.byteOffset, content.byteLength),
        content.byteLength,
        contentType,
      ]),
    );
  }
  return hashes;
}

/** Records many files of a space at once (`linkSpaceFile` for each). */
export async function linkSpaceFiles(db: Queryable, spaceId: string, links: { fileId: string; hash: string }[]) {
  const rows = [...new Map(links.map((l) => [l.fileId, l.hash]))];
  for (let at = 0; at < rows.length; at += BATCH) {
    const chunk = rows.slice(at, at + BATCH);
    await db.query(
      `INSERT INTO space_files (space_id, file_id, hash) VALUES ${valuesOf(chunk.length, 3)} ON CONFLICT (space_id, file_id) DO UPDATE SET hash = EXCLUDED.hash`,
      chunk.flatMap(([fileId, hash]) => [spaceId, fileId, hash]),
    );
  }
}

/** The bytes of many blobs, in one query (an export reads every file of the space). */
export async function getBlobContents(db: Queryable, hashes: string[]): Promise<Map<string, Uint8Array>> {
  if (!hashes.length) return new Map();
  const rows = await db.query<{ hash: string; content: Uint8Array }>('SELECT hash, content FROM files_blobs WHERE hash = ANY($1)', [
    [...new Set(hashes)],
  ]);
  return new Map(rows.map((r) => [r.hash, new Uint8Array(r.content.buffer, r.content.byteOffset, r.content.byteLength)]));
}

/** Records that a space's file holds these bytes. */
export async function linkSpaceFile(db: Queryable, spaceId: string, fileId: string, hash: string) {
  await db.query(
    'INSERT INTO space_files (space_id, file_id, hash) VALUES ($1, $2, $3) ON CONFLICT (space_id, file_id) DO UPDATE SET hash = EXCLUDED.hash',
    [spaceId, fileId, hash],
  );
}

/** Hashes of some files of a space, for their download URLs. */
export async function spaceFileHashes(db: Queryable, spaceId: string, fileIds: string[]): Promise<Map<string, string>> {
  if (!fileIds.length) return new Map();
  const rows = await db.query<{ file_id: string; hash: string }>(
    'SELECT file_id, hash FROM space_files WHERE space_id = $1 AND file_id = ANY($2)',
    [spaceId, fileIds],
  );
  return new Map(rows.map((r) => [r.file_id, r.hash]));
}

/** A duplicated space's files hold the same bytes. */
export async function copySpaceFiles(db: Queryable, fromSpaceId: string, toSpaceId: string) {
  await db.query(
    'INSERT INTO space_files (space_id, file_id, hash) SELECT $2, file_id, hash FROM space_files WHERE space_id = $1 ON CONFLICT DO NOTHING',
    [fromSpaceId, toSpaceId],
  );
}

/**
 * Gives a space's file id its bytes, once: the first upload under an id takes it, the same
 * bytes again change nothing ('same'), other bytes under a taken id are refused ('taken').
 */
export async function claimSpaceFile(db: Queryable, spaceId: string, fileId: string, hash: string): Promise<'created' | 'same' | 'taken'> {
  const inserted = await db.query(
    'INSERT INTO space_files (space_id, file_id, hash) VALUES ($1, $2, $3) ON CONFLICT (space_id, file_id) DO NOTHING RETURNING file_id',
    [spaceId, fileId, hash],
  );
  if (inserted.length) return 'created';
  const held = (await spaceFileHashes(db, spaceId, [fileId])).get(fileId);
  return held === hash ? 'same' : 'taken';
}

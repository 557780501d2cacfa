import type { Queryable } from './db';
import { putBlob, putBlobs } from './files';

/** Keeps a file a git import read, under its git blob id. */
export async function putGitSource(db: Queryable, spaceId: string, oid: string, bytes: Uint8Array): Promise<void> {
  const hash = await putBlob(db, bytes, 'text/markdown');
  await db.query('INSERT INTO git_sources (space_id, oid, hash) VALUES ($1, $2, $3) ON CONFLICT (space_id, oid) DO NOTHING', [
    spaceId,
    oid,
    hash,
  ]);
}

/** Keeps many files a git import read (`putGitSource` for each), a few statements in all. */
export async function putGitSources(db: Queryable, spaceId: string, sources: { oid: string; bytes: Uint8Array }[]): Promise<void> {
  const hashes = await putBlobs(
    db,
    sources.map((s) => ({ content: s.bytes, contentType: 'text/markdown' })),
  );
  const rows = [...new Map(sources.map((s, i) => [s.oid, hashes[i] as string]))];
  for (let at = 0; at < rows.length; at += 500) {
    const chunk = rows.slice(at, at + 500);
    await db.query(
      `INSERT INTO git_sources (space_id, oid, hash) VALUES ${chunk.map((_, i) => `($1, $${2 * i + 2}, $${2 * i + 3})`).join(', ')} ON CONFLICT (space_id, oid) DO NOTHING`,
      [spaceId, ...chunk.flat()],
    );
  }
}

/** The bytes a git import of this space read under these blob ids (those it read), in one query. */
export async function getGitSources(db: Queryable, spaceId: string, oids: string[]): Promise<Map<string, Uint8Array>> {
  if (!oids.length) return new Map();
  const rows = await db.query<{ oid: string; content: Uint8Array }>(
    'SELECT g.oid, b.content FROM git_sources g JOIN files_blobs b ON b.hash = g.hash WHERE g.space_id = $1 AND g.oid = ANY($2)',
    [spaceId, oids],
  );
  return new Map(rows.map((r) => [r.oid, new Uint8Array(r.content.buffer, r.content.byteOffset, r.content.byteLength)]));
}

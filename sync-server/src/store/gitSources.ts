import type { Queryable } from './db';
import { putBlob } from './files';

/** Keeps a file a git import read, under its git blob id. */
export async function putGitSource(db: Queryable, spaceId: string, oid: string, bytes: Uint8Array): Promise<void> {
  const hash = await putBlob(db, bytes, 'text/markdown');
  await db.query('INSERT INTO git_sources (space_id, oid, hash) VALUES ($1, $2, $3) ON CONFLICT (space_id, oid) DO NOTHING', [
    spaceId,
    oid,
    hash,
  ]);
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

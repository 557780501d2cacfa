import type { Queryable } from './db';
import { getBlob, putBlob } from './files';

/** Keeps a file a git import read, under its git blob id. */
export async function putGitSource(db: Queryable, spaceId: string, oid: string, bytes: Uint8Array): Promise<void> {
  const hash = await putBlob(db, bytes, 'text/markdown');
  await db.query('INSERT INTO git_sources (space_id, oid, hash) VALUES ($1, $2, $3) ON CONFLICT (space_id, oid) DO NOTHING', [
    spaceId,
    oid,
    hash,
  ]);
}

/** The bytes a git import read under this blob id for this space, if it read any. */
export async function getGitSource(db: Queryable, spaceId: string, oid: string): Promise<Uint8Array | undefined> {
  const rows = await db.query<{ hash: string }>('SELECT hash FROM git_sources WHERE space_id = $1 AND oid = $2', [spaceId, oid]);
  const hash = rows[0]?.hash;
  return hash ? (await getBlob(db, hash))?.content : undefined;
}

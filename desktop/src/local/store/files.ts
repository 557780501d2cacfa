import { type Queryable, bytea, maybeOne, u8 } from './database';

/** local: its space is on no server yet; queued: an upload waits; uploaded; fetched: it came from the server. */
export type LocalFileState = 'local' | 'queued' | 'uploaded' | 'fetched';

export interface LocalFile {
  id: string;
  spaceId: string;
  name: string;
  contentType: string;
  bytes: Uint8Array;
  state: LocalFileState;
  dimensions?: { width: number; height: number };
}

/** Keeps a file's bytes on this machine (a second save of the same id changes nothing). */
export async function putLocalFile(db: Queryable, file: LocalFile): Promise<void> {
  await db.query(
    `INSERT INTO files (id, space_id, name, content_type, size, bytes, state, width, height) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (id) DO NOTHING`,
    [
      file.id,
      file.spaceId,
      file.name,
      file.contentType,
      file.bytes.byteLength,
      bytea(file.bytes),
      file.state,
      file.dimensions?.width ?? null,
      file.dimensions?.height ?? null,
    ],
  );
}

export async function getLocalFile(db: Queryable, id: string): Promise<LocalFile | undefined> {
  const row = await maybeOne<{ id: string; space_id: string; name: string; content_type: string; bytes: string; state: LocalFileState }>(
    db,
    // Read as base64: PGlite decodes bytea results byte by byte in JavaScript.
    "SELECT id, space_id, name, content_type, encode(bytes, 'base64') AS bytes, state FROM files WHERE id = $1",
    [id],
  );
  if (!row) return undefined;
  return {
    id: row.id,
    spaceId: row.space_id,
    name: row.name,
    contentType: row.content_type,
    bytes: u8(Buffer.from(row.bytes, 'base64')),
    state: row.state,
  };
}

export async function setLocalFileState(db: Queryable, id: string, state: LocalFileState): Promise<void> {
  await db.query('UPDATE files SET state = $2 WHERE id = $1', [id, state]);
}

/** Files of a space that never left this machine (its space was local): what publishing must upload. */
export async function localOnlyFiles(db: Queryable, spaceId: string): Promise<{ id: string; name: string }[]> {
  return db.query<{ id: string; name: string }>(
    "SELECT id, name FROM files WHERE space_id = $1 AND state = 'local' ORDER BY created_at, id",
    [spaceId],
  );
}

/** Whether uploads of a space's files still wait in the outbox. */
export async function uploadsWaiting(db: Queryable, spaceId: string): Promise<boolean> {
  const row = await maybeOne(
    db,
    "SELECT 1 FROM outbox WHERE state = 'pending' AND kind = 'file.upload' AND payload->>'spaceId' = $1 LIMIT 1",
    [spaceId],
  );
  return !!row;
}

/** What a branch records of a file (no bytes), with its state here, for the files among `ids` kept on this machine. */
export async function fileRecords(
  db: Queryable,
  ids: string[],
): Promise<
  { id: string; name: string; contentType: string; size: number; state: LocalFileState; dimensions?: { width: number; height: number } }[]
> {
  if (!ids.length) return [];
  const rows = await db.query<{
    id: string;
    name: string;
    content_type: string;
    size: number;
    state: LocalFileState;
    width: number | null;
    height: number | null;
  }>('SELECT id, name, content_type, size, state, width, height FROM files WHERE id = ANY($1::text[])', [ids]);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    contentType: r.content_type,
    size: Number(r.size),
    state: r.state,
    ...(r.width && r.height ? { dimensions: { width: Number(r.width), height: Number(r.height) } } : {}),
  }));
}

import { newId } from '@quire/shared';
import { type Queryable, maybeOne } from './db';
import { GIT_CHANNEL, type GitOperationRequest } from './git';

export interface GitConnectionRow {
  space_id: string;
  id: string;
  url: string;
  ref: string;
  repo_project_directory: string | null;
  provider: 'github' | 'gitlab' | 'generic';
  credentials: string | null;
  hook_secret: string;
  first_sync: 'quire' | 'git';
  connected_by: string;
  connected_at: Date;
  base_commit: string | null;
  base_state: Uint8Array | null;
  base_revision: string | null;
  polled_commit: string | null;
  polled_at: Date | null;
}

export type NewGitConnection = Pick<
  GitConnectionRow,
  'space_id' | 'url' | 'ref' | 'repo_project_directory' | 'provider' | 'credentials' | 'hook_secret' | 'first_sync' | 'connected_by'
>;

/** Connects a space (or changes its connection): the base is forgotten, so the next sync is a first one. */
export async function putGitConnection(db: Queryable, c: NewGitConnection): Promise<GitConnectionRow> {
  const row = await maybeOne<GitConnectionRow>(
    db,
    `INSERT INTO git_connections (space_id, url, ref, repo_project_directory, provider, credentials, hook_secret, first_sync, connected_by, id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (space_id) DO UPDATE SET id = $10, url = $2, ref = $3, repo_project_directory = $4, provider = $5, credentials = $6,
       hook_secret = $7, first_sync = $8, connected_by = $9, connected_at = now(),
       base_commit = NULL, base_state = NULL, base_revision = NULL, polled_commit = NULL, polled_at = NULL
     RETURNING *`,
    [c.space_id, c.url, c.ref, c.repo_project_directory, c.provider, c.credentials, c.hook_secret, c.first_sync, c.connected_by, newId()],
  );
  return row as GitConnectionRow;
}

export function getGitConnection(db: Queryable, spaceId: string) {
  return maybeOne<GitConnectionRow>(db, 'SELECT * FROM git_connections WHERE space_id = $1', [spaceId]);
}

export async function deleteGitConnection(db: Queryable, spaceId: string): Promise<void> {
  await db.query('DELETE FROM git_connections WHERE space_id = $1', [spaceId]);
  // Syncs still waiting have nothing left to follow.
  await db.query(
    `UPDATE git_operations SET state = 'failure', error = 'the space was disconnected from its repository', ended_at = now(), credentials = NULL
      WHERE space_id = $1 AND state = 'queued' AND request ? 'sync'`,
    [spaceId],
  );
}

/** What both sides now agree on: the commit, its content's Yjs state and main's revision it came from. */
export interface GitBase {
  commit: string;
  state: Uint8Array;
  revision: string;
}

/** Records the base, unless the space was connected again since (that connection starts over). */
export async function setGitBase(db: Queryable, spaceId: string, connectionId: string, base: GitBase): Promise<void> {
  await db.query(
    `UPDATE git_connections SET base_commit = $3, base_state = $4, base_revision = $5, polled_commit = $3
      WHERE space_id = $1 AND id = $2`,
    [spaceId, connectionId, base.commit, base.state, base.revision],
  );
}

/** Who to name as editors of a commit: who cut main's revisions after `from` up to `to`, and the contributors of change requests merged there. */
export async function gitEditors(db: Queryable, spaceId: string, from: string | null, to: string) {
  return db.query<{ id: string; display_name: string | null; email: string | null }>(
    `WITH span AS (
       SELECT r.created_by, r.type, r.parents FROM revisions r
        WHERE r.branch = 'space:' || $1
          AND r.seq <= (SELECT seq FROM revisions WHERE id = $3)
          AND r.seq > COALESCE((SELECT seq FROM revisions WHERE id = $2), 0)
     ), who AS (
       SELECT created_by AS id FROM span WHERE created_by IS NOT NULL
       UNION
       SELECT c.user_id FROM span s JOIN revisions m ON m.id = ANY(s.parents) AND m.change_request_id IS NOT NULL
         JOIN change_request_contributors c ON c.change_request_id = m.change_request_id WHERE s.type = 'merge'
     )
     SELECT u.id, u.display_name, u.email FROM who JOIN users u ON u.id = who.id ORDER BY u.id`,
    [spaceId, from, to],
  );
}

/** The subject of the change request whose head revision this is, for a merge's commit message. */
export async function changeRequestSubjectOf(db: Queryable, revisionId: string): Promise<string | undefined> {
  const row = await maybeOne<{ subject: string | null }>(
    db,
    'SELECT cr.subject FROM revisions r JOIN change_requests cr ON cr.id = r.change_request_id WHERE r.id = $1',
    [revisionId],
  );
  return row?.subject || undefined;
}

/** Connections a poll looks at: all of them, the least recently polled first. */
export function gitConnectionsToPoll(db: Queryable, limit: number) {
  return db.query<GitConnectionRow>('SELECT * FROM git_connections ORDER BY polled_at NULLS FIRST LIMIT $1', [limit]);
}

export async function markGitPolled(db: Queryable, spaceId: string, commit: string | null): Promise<void> {
  await db.query('UPDATE git_connections SET polled_commit = $2, polled_at = now() WHERE space_id = $1', [spaceId, commit]);
}

/**
 * Queues a sync of a connected space, credentials copied (sealed) from its connection.
 * `pull` follows the repository (a push arrived); `push` writes a main revision of Quire as
 * a commit. A push of live edits already waiting takes the newer revision instead of a second
 * row, so edits made while one waits become one commit. Answers whether the space is connected.
 */
export async function queueGitSync(
  db: Queryable,
  spaceId: string,
  request: Pick<GitOperationRequest, 'sync' | 'revision' | 'commitMessage' | 'liveEdits' | 'retry'>,
  notBefore?: Date,
): Promise<boolean> {
  const conn = await getGitConnection(db, spaceId);
  if (!conn) return false;
  if (!notBefore && (request.sync === 'pull' || request.liveEdits)) {
    // One waiting pull covers every push that arrives before it runs; one waiting push of live edits, every later cut.
    const merged = await db.query(
      `UPDATE git_operations SET request = (request - 'retry') || $3::jsonb, not_before = NULL
        WHERE id = (SELECT id FROM git_operations WHERE space_id = $1 AND state = 'queued' AND request->>'sync' = $2
                       AND ($2 = 'pull' OR (request->>'liveEdits')::boolean) ORDER BY seq DESC LIMIT 1)
        RETURNING id`,
      [spaceId, request.sync, JSON.stringify(request)],
    );
    if (merged.length) return true;
  }
  const full: GitOperationRequest = {
    ...request,
    ...(conn.repo_project_directory ? { repoProjectDirectory: conn.repo_project_directory } : {}),
    provider: conn.provider,
  };
  await db.query(
    `INSERT INTO git_operations (id, space_id, direction, url, ref, request, credentials, requested_by, not_before)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      newId(),
      spaceId,
      request.sync === 'pull' ? 'import' : 'export',
      conn.url,
      conn.ref,
      JSON.stringify(full),
      conn.credentials,
      conn.connected_by,
      notBefore ?? null,
    ],
  );
  await db.query('SELECT pg_notify($1, $2)', [GIT_CHANNEL, '']);
  return true;
}

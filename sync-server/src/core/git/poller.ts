import { getGitConnection, gitConnectionsToPoll, markGitPolled, queueGitSync } from '../../store/gitConnections';
import type { Deps } from '../platform/deps';
import { unsealCredentials } from './credentials';
import { resolveRef } from './importRun';
import { Remote } from './remote';

/** Connections one poll looks at, at most (the least recently polled first). */
const BATCH = 100;

/**
 * Where no webhook can reach the server, connected branches are polled every
 * `GIT_POLL_SECONDS`: the ref is read (one request, no fetch) and a sync queued when it
 * moved past what both sides agree on. Every instance polls; the queue keeps one sync per
 * space waiting, so two polls of one push queue it once.
 */
export async function pollGitConnections(deps: Pick<Deps, 'db' | 'config' | 'log'>): Promise<number> {
  const { db, config, log } = deps;
  let queued = 0;
  for (const conn of await gitConnectionsToPoll(db, BATCH)) {
    if (!conn.base_commit) continue;
    try {
      const credentials = await unsealCredentials(db, conn.credentials);
      const limits = {
        allowPrivate: config.allowPrivateFetch,
        maxBytes: config.git.maxBytes,
        deadline: Date.now() + 30_000,
        timeoutMs: 30_000,
      };
      const refs = await Remote.refsOf(conn.url, credentials, limits);
      const name = resolveRef(refs, conn.ref);
      const head = name ? (refs.get(name) ?? null) : null;
      if (head && head !== conn.base_commit && head !== conn.polled_commit) {
        await db.transaction(async (tx) => {
          if (await getGitConnection(tx, conn.space_id)) await queueGitSync(tx, conn.space_id, { sync: 'pull' });
        });
        queued++;
      }
      await markGitPolled(db, conn.space_id, head);
    } catch (err) {
      // An unreachable remote is what the sync's own failure reports; the poll only says it in the log.
      log.warn({ space: conn.space_id, reason: (err as Error).message }, 'polling a connected git branch failed');
      await markGitPolled(db, conn.space_id, conn.polled_commit).catch(() => {});
    }
  }
  return queued;
}

/** Polls on a timer while the server runs (`GIT_POLL_SECONDS` > 0); answers the stop. */
export function startGitPolling(deps: Pick<Deps, 'db' | 'config' | 'log'>): () => Promise<void> {
  const seconds = deps.config.git.pollSeconds;
  if (!seconds) return async () => {};
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    running ??= pollGitConnections(deps)
      .catch((err) => deps.log.error({ err }, 'git poll failed'))
      .finally(() => (running = undefined));
  }, seconds * 1000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

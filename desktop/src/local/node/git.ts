import type { GitSpaceState } from '../../common/ipc';
import { RemoteError, UnreachableError } from '../ServerClient';
import { getMeta, setMeta } from '../store/catalog';
import type { NodeContext } from './context';

/** Where a space's git state is kept between starts, so the window still shows it offline. */
const keyOf = (spaceId: string) => `gitState:${spaceId}`;

const NONE: GitSpaceState = { connection: null, operation: null, source: 'none', checkedAt: null };

interface ServerConnection {
  url: string;
  ref: string;
  provider: string;
  commit?: string;
}
interface ServerInfo {
  operation?: {
    state: 'running' | 'failure' | 'success' | 'timeout';
    direction: 'import' | 'export';
    startedAt: string;
    endedAt?: string;
    error?: string;
  };
}

/**
 * A space's git connection (`GET /v1/spaces/{id}/git/sync`: the repository without
 * credentials, the branch, the last commit both sides agree on) and its last operation
 * (`GET …/git/info`: state, direction, times, the error worded for a person): asked of the
 * server while it answers and kept, like the members, so the window shows what was last
 * known offline. A space only on this machine, or one the server has no connection for, has none.
 */
export class GitStatus {
  constructor(private readonly ctx: NodeContext) {}

  async state(spaceId: string): Promise<GitSpaceState> {
    const space = await this.ctx.catalog.spaceOrThrow(spaceId);
    if (!space.remoteId || space.syncState !== 'remote') return NONE;
    const client = this.ctx.session.server;
    if (client && this.ctx.session.reachable !== false) {
      try {
        const base = `/v1/spaces/${encodeURIComponent(space.remoteId)}/git`;
        const connection = await client.request<ServerConnection>('GET', `${base}/sync`).catch((err) => {
          // Not connected (or not an editor, who alone sees the connection): nothing to show.
          if (err instanceof RemoteError && (err.status === 404 || err.status === 403)) return null;
          throw err;
        });
        const info = connection ? await client.request<ServerInfo>('GET', `${base}/info`) : {};
        const op = info.operation;
        const fresh: GitSpaceState = {
          connection: connection && {
            url: connection.url,
            ref: connection.ref,
            provider: connection.provider,
            commit: connection.commit ?? null,
          },
          operation: op
            ? { state: op.state, direction: op.direction, startedAt: op.startedAt, endedAt: op.endedAt ?? null, error: op.error ?? null }
            : null,
          source: connection ? 'server' : 'none',
          checkedAt: new Date().toISOString(),
        };
        await setMeta(this.ctx.db, keyOf(spaceId), fresh);
        return fresh;
      } catch (err) {
        if (!(err instanceof UnreachableError) && !(err instanceof RemoteError)) throw err;
      }
    }
    const kept = await getMeta<GitSpaceState>(this.ctx.db, keyOf(spaceId));
    return kept?.connection ? { ...kept, source: 'kept' } : NONE;
  }
}

import { LiveServer } from '../../../sync-server/src/testing/syncClients';

/** A real Quire server (REST + /v1/sync) on a fresh database, with an organization and its admin. */
export interface QuireTestServer {
  live: LiveServer;
  url: string;
  orgId: string;
  token: string;
  /** Another member of the organization (edit role), for two-user tests. */
  otherToken: string;
  close(): Promise<void>;
}

/** `overrides`: the server's configuration beyond the defaults (e.g. `allowPrivateFetch` to reach a git server on loopback). */
export async function startQuireServer(overrides: Record<string, unknown> = {}): Promise<QuireTestServer> {
  const live = await LiveServer.start({ ...overrides, sync: { recheckMs: 200, idleMs: 300 } } as never);
  const { orgId, admin, members } = await live.t.org(['edit']);
  return {
    live,
    url: `http://127.0.0.1:${live.running.port}`,
    orgId,
    token: admin.token,
    otherToken: (members[0] as { token: string }).token,
    close: () => live.close(),
  };
}

/** Polls until `check` holds (or throws after `ms`). */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Webhook delivery latency: from the start of a change request merge (`POST .../merge`
 * over REST, on the real server with its whole middleware chain) to a local receiver
 * holding the signed `change_request.merged` delivery. The receiver answers at once, so
 * the figure is the server's: the merge, the queue row, the wake-up and the send.
 *
 * `node --import tsx bench/integrations/webhooks.ts` runs it alone; with `DATABASE_URL` on
 * a scratch database of that PostgreSQL server, else on the embedded database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createPage } from '@quire/shared/content/pages';
import { loadConfig } from '../../sync-server/src/config';
import { editBranch } from '../../sync-server/src/core/content/revisions';
import { createLogger } from '../../sync-server/src/logger';
import { type RunningServer, startServer } from '../../sync-server/src/server';
import { createOrg } from '../../sync-server/src/store/organizations';
import { createToken } from '../../sync-server/src/store/tokens';
import { ensureUser } from '../../sync-server/src/store/users';
import { WebhookReceiver } from '../../sync-server/src/testing/webhookReceiver';
import { scratchDatabase } from '../scratchDatabase';

export interface WebhookLatencyOptions {
  /** Merges measured, one after the other (default 50). */
  merges?: number;
  /** A PostgreSQL server to run on (a scratch database is made and dropped); default `DATABASE_URL`, else the embedded database. */
  databaseUrl?: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

export interface WebhookLatency {
  /** Milliseconds from the start of the merge request to the delivery reaching the receiver. */
  p50: number;
  p99: number;
  n: number;
  /** The merge request's own answer time (p50), for how much of the latency is the merge itself. */
  mergeP50?: number;
}

export async function webhookLatency(opts: WebhookLatencyOptions = {}): Promise<WebhookLatency> {
  const merges = opts.merges ?? 50;
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-hooks-bench-'));
  const pgUrl = opts.databaseUrl ?? process.env.DATABASE_URL;
  const scratch = pgUrl ? await scratchDatabase(pgUrl, 'quire_hooks_bench') : undefined;
  const receiver = await WebhookReceiver.start();
  let server: RunningServer | undefined;
  try {
    server = await startServer(
      {
        ...loadConfig({}),
        port: 0,
        host: '127.0.0.1',
        dataDir,
        databaseUrl: scratch?.url,
        rateLimitPerToken: 0,
        rateLimitPerAddress: 0,
        // The receiver listens on loopback.
        allowPrivateFetch: true,
        logLevel: 'warn',
      },
      createLogger('warn'),
    );
    const { db } = server.deps;
    const base = `http://127.0.0.1:${server.port}`;
    const owner = await ensureUser(db, `hooks-${Date.now()}@bench.test`, 'Bench owner');
    const org = await createOrg(db, 'Webhook bench', owner.id);
    const token = await createToken(db, owner.id, undefined, 'webhook bench');
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as Record<string, any>;
    };
    const space = await call('POST', `/v1/orgs/${org.id}/spaces`, { title: 'Webhook bench' });
    const hook = await call('POST', `/v1/orgs/${org.id}/webhooks`, { url: receiver.url, events: ['change_request.merged'] });
    receiver.secret = hook.secret as string;

    const latencies: number[] = [];
    const mergeTimes: number[] = [];
    for (let i = 0; i < merges + 3; i++) {
      const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: `Change ${i}` });
      // A page written into the change request, as an editor would before merging it.
      await db.transaction((tx) =>
        editBranch(tx, { spaceId: space.id, changeRequestId: cr.id }, (doc) =>
          createPage(doc, { title: `Page ${i}`, markdown: `Text ${i}` }),
        ),
      );
      const started = performance.now();
      await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
      const answered = performance.now();
      const arrived = () => receiver.received.find((r) => (r.payload.changeRequest as { id?: string } | null)?.id === cr.id);
      await receiver.waitFor(() => !!arrived(), 30_000, `the merge of change request ${cr.id}`);
      const got = arrived();
      if (!got?.verified) throw new Error('a delivery did not verify');
      // The first few warm the server up (compilation, caches).
      if (i >= 3) {
        latencies.push(got.at - started);
        mergeTimes.push(answered - started);
      }
    }
    latencies.sort((a, b) => a - b);
    mergeTimes.sort((a, b) => a - b);
    return {
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      n: latencies.length,
      mergeP50: percentile(mergeTimes, 0.5),
    };
  } finally {
    await server?.stop();
    await receiver.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await webhookLatency({ merges: Number(process.env.MERGES ?? 50) });
  console.log(
    `webhook delivery, merge → receiver (${process.env.DATABASE_URL ? 'postgres' : 'pglite'}): p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.n} merges; the merge answers in ${r.mergeP50?.toFixed(1)} ms at p50)`,
  );
  process.exit(0);
}

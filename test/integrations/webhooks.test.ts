import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, preparedDataDir, testAdapter } from '../../sync-server/src/testing/databases';
import { type ServerProcess, spawnServer } from '../../sync-server/src/testing/processes';
import { WebhookReceiver } from '../../sync-server/src/testing/webhookReceiver';

const TOKEN = 'webhook-test-token-0123456789abcdef';
/** Starts real server processes: on a busy machine each start can take many seconds. */
const SPAWNING = 300_000;
const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function databaseEnv(): Promise<Record<string, string>> {
  const dataDir = preparedDataDir('quire-webhooks-');
  dirs.push(dataDir);
  const base = { DATA_DIR: dataDir, BOOTSTRAP_ADMIN_TOKEN: TOKEN, ALLOW_PRIVATE_FETCH: 'true' };
  if (testAdapter() === 'postgres') {
    const { url, drop } = await freshPostgresUrl();
    cleanups.push(drop);
    return { ...base, DATABASE_URL: url };
  }
  return base;
}

async function receiver(): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start();
  cleanups.push(() => r.close());
  return r;
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const s = await spawnServer(env);
  cleanups.push(async () => {
    if (s.proc.exitCode === null && s.proc.signalCode === null) {
      s.proc.kill('SIGKILL');
      await s.exited;
    }
  });
  return s;
}

const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function call(server: ServerProcess, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function setUp(server: ServerProcess, hook: WebhookReceiver, events: string[]) {
  const orgId = (await call(server, 'GET', '/v1/orgs')).body.items[0].id as string;
  const created = await call(server, 'POST', `/v1/orgs/${orgId}/webhooks`, { url: hook.url, events });
  expect(created.status).toBe(201);
  hook.secret = created.body.secret;
  const space = await call(server, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Hooked' });
  expect(space.status).toBe(201);
  return { orgId, spaceId: space.body.id as string, webhookId: created.body.id as string };
}

function eventIds(r: WebhookReceiver): string[] {
  return r.accepted().map((x) => x.payload.id);
}

describe(`webhook deliveries from a real server on ${testAdapter()}`, () => {
  it(
    'delivers, after a kill -9 and a restart, the deliveries that were pending, each event once',
    async () => {
      const env = { ...(await databaseEnv()), WEBHOOK_RETRY_BASE_MS: '2000', WEBHOOK_TIMEOUT_MS: '5000' };
      const hook = await receiver();
      hook.answer = () => 500;
      const first = await start(env);
      const { spaceId } = await setUp(first, hook, ['comment.created', 'change_request.created']);
      for (let i = 0; i < 4; i++)
        expect((await call(first, 'POST', `/v1/spaces/${spaceId}/comments`, { body: { markdown: `c${i}` } })).status).toBe(200);
      expect((await call(first, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'pending' })).status).toBe(200);
      // Every event tried once and refused: all five wait for their retry when the server dies.
      await hook.waitFor((r) => new Set(r.received.map((x) => x.payload.id)).size === 5);
      first.proc.kill('SIGKILL');
      await first.exited;
      const refusedBeforeKill = new Set(hook.received.map((x) => x.payload.id));

      hook.answer = () => 200;
      const second = await start(env);
      await hook.waitFor((r) => r.accepted().length >= 5, 60_000);
      // A little longer: nothing may come twice.
      await new Promise((r) => setTimeout(r, 1500));
      expect(new Set(eventIds(hook))).toEqual(refusedBeforeKill);
      expect(eventIds(hook)).toHaveLength(5);
      expect(hook.received.every((x) => x.verified)).toBe(true);
      second.proc.kill('SIGTERM');
      await second.exited;
    },
    SPAWNING,
  );

  it(
    'keeps edits fast while a receiver hangs and another answers 500',
    async () => {
      const env = { ...(await databaseEnv()), WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_RETRY_BASE_MS: '200' };
      const server = await start(env);
      const orgId = (await call(server, 'GET', '/v1/orgs')).body.items[0].id as string;
      const space = (await call(server, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Busy' })).body.id as string;
      const edit = async (i: number) => {
        const started = performance.now();
        const cr = await call(server, 'POST', `/v1/spaces/${space}/change-requests`, { subject: `edit ${i}` });
        expect(cr.status).toBe(200);
        expect(
          (await call(server, 'POST', `/v1/spaces/${space}/content/template`, { id: 'getting-started', changeRequestId: cr.body.id }))
            .status,
        ).toBe(204);
        expect((await call(server, 'POST', `/v1/spaces/${space}/comments`, { body: { markdown: `note ${i}` } })).status).toBe(200);
        return performance.now() - started;
      };
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
      const ROUNDS = 8;
      await edit(-1);
      const quiet: number[] = [];
      for (let i = 0; i < ROUNDS; i++) quiet.push(await edit(i));

      const hanging = await receiver();
      hanging.answer = () => 'hang';
      const failing = await receiver();
      failing.answer = () => 500;
      const healthy = await receiver();
      const events = ['page.content_changed', 'change_request.created', 'comment.created'];
      for (const r of [hanging, failing, healthy]) {
        expect((await call(server, 'POST', `/v1/orgs/${orgId}/webhooks`, { url: r.url, events })).status).toBe(201);
      }
      const busy: number[] = [];
      for (let i = 0; i < ROUNDS; i++) busy.push(await edit(ROUNDS + i));
      // The receivers were being tried while the edits ran.
      await hanging.waitFor((r) => r.received.length >= 3);
      await failing.waitFor((r) => r.received.length >= 3);
      // An attempt may take ten seconds; no edit waits for one.
      expect(Math.max(...busy)).toBeLessThan(5000);
      expect(median(busy)).toBeLessThan(median(quiet) * 3 + 100);
      // Nor does a healthy receiver: the hanging one holds only a few of the sending slots.
      const comments = () => healthy.accepted().filter((x) => x.payload.type === 'comment.created').length;
      await healthy.waitFor(() => comments() === ROUNDS, 5000, 'the healthy receiver');
      server.proc.kill('SIGTERM');
      await server.exited;
    },
    SPAWNING,
  );

  it.skipIf(testAdapter() !== 'postgres')(
    'shares the queue between instances on one PostgreSQL without sending an event twice',
    async () => {
      const env = { ...(await databaseEnv()), WEBHOOK_RETRY_BASE_MS: '200' };
      const hook = await receiver();
      const a = await start(env);
      const otherDir = preparedDataDir('quire-webhooks-b-');
      dirs.push(otherDir);
      const b = await start({ ...env, BOOTSTRAP_ADMIN_TOKEN: '', DATA_DIR: otherDir });
      const { spaceId } = await setUp(a, hook, ['comment.created']);
      const COUNT = 30;
      await Promise.all(
        Array.from({ length: COUNT }, (_, i) =>
          call(i % 2 ? a : b, 'POST', `/v1/spaces/${spaceId}/comments`, { body: { markdown: `c${i}` } }),
        ),
      );
      await hook.waitFor((r) => r.accepted().length >= COUNT, 60_000);
      await new Promise((r) => setTimeout(r, 1500));
      expect(hook.received).toHaveLength(COUNT);
      expect(new Set(eventIds(hook)).size).toBe(COUNT);
    },
    SPAWNING,
  );
});

import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, preparedDataDir, testAdapter } from '../../sync-server/src/testing/databases';
import { spawnServer } from '../../sync-server/src/testing/processes';

const TOKEN = 'durability-test-token-0123456789';
/** Starts real server processes: on a busy machine each start can take many seconds. */
const SPAWNING = 300_000;
const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  for (const c of cleanups) await c();
});

async function databaseEnv(): Promise<Record<string, string>> {
  const dataDir = preparedDataDir('quire-durability-');
  dirs.push(dataDir);
  if (testAdapter() === 'postgres') {
    const { url, drop } = await freshPostgresUrl();
    cleanups.push(drop);
    return { DATA_DIR: dataDir, DATABASE_URL: url };
  }
  return { DATA_DIR: dataDir };
}

const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

describe(`durability on ${testAdapter()}`, () => {
  it(
    'keeps every write that answered success through a kill -9 the next instant',
    async () => {
      const env = { ...(await databaseEnv()), BOOTSTRAP_ADMIN_TOKEN: TOKEN };
      const first = await spawnServer(env);
      const orgs = await (await fetch(`${first.url}/v1/orgs`, { headers: auth })).json();
      const orgId = orgs.items[0].id as string;
      const titles: string[] = [];
      let lastAnswered: Promise<Response> | undefined;
      for (let i = 0; i < 20; i++) {
        const title = `Durable ${i} ';--`;
        lastAnswered = fetch(`${first.url}/v1/orgs/${orgId}/spaces`, { method: 'POST', headers: auth, body: JSON.stringify({ title }) });
        const res = await lastAnswered;
        expect(res.status).toBe(201);
        titles.push(title);
      }
      // The kill comes right after the last success, before anything could be flushed lazily.
      first.proc.kill('SIGKILL');
      await first.exited;

      const second = await spawnServer(env);
      try {
        const list = await (await fetch(`${second.url}/v1/orgs/${orgId}/spaces?limit=100`, { headers: auth })).json();
        expect(list.items.map((s: { title: string }) => s.title).sort()).toEqual([...titles].sort());
      } finally {
        second.proc.kill('SIGTERM');
        await second.exited;
      }
    },
    SPAWNING,
  );

  it.skipIf(testAdapter() === 'postgres')(
    'refuses a second server on a data directory in use, and takes over a stale lock',
    async () => {
      const env = await databaseEnv();
      const first = await spawnServer(env);
      try {
        await expect(spawnServer(env, 120_000)).rejects.toThrow(/in use by another process/);
      } finally {
        first.proc.kill('SIGKILL');
        await first.exited;
      }
      // The lock of the killed process is stale: the next start takes it over.
      const again = await spawnServer(env);
      const health = await fetch(`${again.url}/healthz`);
      expect(health.status).toBe(200);
      again.proc.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    },
    SPAWNING,
  );
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, testAdapter } from '../../sync-server/src/testing/databases';
import { spawnServer } from '../../sync-server/src/testing/processes';

const dirs: string[] = [];
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  for (const d of drops) await d();
});

describe(`bootstrap and shutdown on ${testAdapter()}`, () => {
  it('creates the first organization once, and a second start with the setting adds nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-boot-'));
    dirs.push(dataDir);
    const env: Record<string, string> = { DATA_DIR: dataDir, BOOTSTRAP_ADMIN_TOKEN: 'boot-token-abcdefghijklmnop' };
    if (testAdapter() === 'postgres') {
      const fresh = await freshPostgresUrl();
      env.DATABASE_URL = fresh.url;
      drops.push(fresh.drop);
    }
    const auth = { authorization: 'Bearer boot-token-abcdefghijklmnop' };
    const first = await spawnServer(env);
    const orgs = await (await fetch(`${first.url}/v1/orgs`, { headers: auth })).json();
    expect(orgs.count).toBe(1);
    expect(orgs.items[0].permissions.admin).toBe(true);

    // A slow request in flight when SIGTERM arrives still gets its answer.
    const inFlight = fetch(`${first.url}/v1/orgs/${orgs.items[0].id}/members`, { headers: auth });
    first.proc.kill('SIGTERM');
    expect((await inFlight).status).toBe(200);
    expect(await first.exited).toBe(0);

    const second = await spawnServer({ ...env, BOOTSTRAP_ADMIN_TOKEN: 'another-token-abcdefghijkl' });
    try {
      const again = await (await fetch(`${second.url}/v1/orgs`, { headers: auth })).json();
      expect(again.count).toBe(1);
      const other = await fetch(`${second.url}/v1/orgs`, { headers: { authorization: 'Bearer another-token-abcdefghijkl' } });
      expect(other.status).toBe(401);
    } finally {
      second.proc.kill('SIGTERM');
      await second.exited;
    }
  });
});

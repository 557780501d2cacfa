import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
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

/**
 * POSTs a space with `Expect: 100-continue`: the server's "continue" proves it has the
 * request; `meanwhile` runs then, before the body is sent.
 */
function requestInFlight(
  port: number,
  path: string,
  authorization: string,
  meanwhile: () => void,
): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({ title: 'Written during shutdown' });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent: false,
        headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.once('continue', () => {
      meanwhile();
      // Give the signal time to land before the body does.
      setTimeout(() => req.end(body), 200);
    });
    req.flushHeaders();
  });
}

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

    // A request the server has begun (its headers are in, the body not yet) when SIGTERM
    // arrives is finished and answered; the server then exits cleanly.
    const orgId = orgs.items[0].id as string;
    const inFlight = await requestInFlight(first.port, `/v1/orgs/${orgId}/spaces`, auth.authorization, () => first.proc.kill('SIGTERM'));
    expect(inFlight.status).toBe(201);
    expect(await first.exited).toBe(0);

    const second = await spawnServer({ ...env, BOOTSTRAP_ADMIN_TOKEN: 'another-token-abcdefghijkl' });
    try {
      const again = await (await fetch(`${second.url}/v1/orgs`, { headers: auth })).json();
      expect(again.count).toBe(1);
      const spaces = await (await fetch(`${second.url}/v1/orgs/${orgId}/spaces`, { headers: auth })).json();
      expect(spaces.items.map((x: { title: string }) => x.title)).toEqual(['Written during shutdown']);
      const other = await fetch(`${second.url}/v1/orgs`, { headers: { authorization: 'Bearer another-token-abcdefghijkl' } });
      expect(other.status).toBe(401);
    } finally {
      second.proc.kill('SIGTERM');
      await second.exited;
    }
  }, 300_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, testAdapter } from '../testing/databases';
import { spawnServer } from '../testing/processes';
import { runAdmin } from './admin';

let env: NodeJS.ProcessEnv;
let dataDir: string;
let drop = async () => {};
/** Starts real server processes: on a busy machine each start can take many seconds. */
const SPAWNING = 300_000;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'quire-admin-'));
  env = { DATA_DIR: dataDir };
  if (testAdapter() === 'postgres') {
    const fresh = await freshPostgresUrl();
    env.DATABASE_URL = fresh.url;
    drop = fresh.drop;
  }
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await drop();
});

async function admin(...args: string[]) {
  const out: string[] = [];
  const errors: string[] = [];
  const code = await runAdmin(
    args,
    (l) => out.push(l),
    env,
    (l) => errors.push(l),
  );
  return { code, out, errors: errors.join('\n') };
}

describe('npm run admin', () => {
  it(
    'creates an organization, a user and a token that works on the server, then revokes it',
    async () => {
      const org = await admin('org', 'create', 'Acme', 'Docs');
      expect(org.code).toBe(0);
      const orgId = org.out.at(-1) as string;
      expect(orgId).toMatch(/^[A-Za-z0-9]{20,}$/);

      expect((await admin('user', 'create', 'ada@acme.test', '--org', orgId, '--role', 'edit')).code).toBe(0);
      const token = await admin('token', 'create', 'ada@acme.test');
      expect(token.code).toBe(0);
      const secret = token.out.at(-1) as string;
      expect(secret).toMatch(/^qt_/);

      const server = await spawnServer(env as Record<string, string>);
      try {
        const res = await fetch(`${server.url}/v1/orgs/${orgId}`, { headers: { authorization: `Bearer ${secret}` } });
        expect(res.status).toBe(200);
        expect((await res.json()).title).toBe('Acme Docs');
        const member = await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${secret}` } });
        expect((await member.json()).email).toBe('ada@acme.test');
        if (testAdapter() === 'pglite') {
          // The embedded database is the server's alone while it runs.
          const busy = await admin('org', 'create', 'Other');
          expect(busy.code).toBe(1);
          expect(busy.errors).toMatch(/in use by another process.*stop the server/s);
          // Bad usage is explained without the database, so the running server is no obstacle.
          const usage = await admin('user', 'create', 'x@y.z', '--org', orgId, '--role', 'wizard');
          expect(usage.code).toBe(2);
          expect(usage.errors).toMatch(/unknown role "wizard"/);
        }
      } finally {
        server.proc.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      }

      expect((await admin('user', 'role', 'ada@acme.test', '--org', orgId, '--role', 'read')).code).toBe(0);
      expect((await admin('token', 'revoke', secret)).out.at(-1)).toBe('Token revoked.');
      const again = await spawnServer(env as Record<string, string>);
      try {
        const res = await fetch(`${again.url}/v1/orgs/${orgId}`, { headers: { authorization: `Bearer ${secret}` } });
        expect(res.status).toBe(401);
      } finally {
        again.proc.kill('SIGTERM');
        await again.exited;
      }
    },
    SPAWNING,
  );

  it('explains bad usage', async () => {
    const bad = await admin('user', 'create', 'x@y.z', '--org', 'nope', '--role', 'wizard');
    expect(bad.code).toBe(2);
    expect(bad.errors).toMatch(/unknown role "wizard"/);
    const unknown = await admin('token', 'create', 'nobody@nowhere.test');
    expect(unknown.code).toBe(1);
    expect(unknown.errors).toMatch(/No user with email/);
  });
});

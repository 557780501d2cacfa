import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../sync-server/src/cli/admin';
import { freshPostgresUrl } from '../../sync-server/src/testing/databases';
import { type ServerProcess, spawnServer } from '../../sync-server/src/testing/processes';

/**
 * Two server processes on one PostgreSQL, each with its read model warm: a change made
 * through one instance, or through the admin command line, shows on the very next
 * request to the other (the NOTIFY fence: no instance answers with data older than a
 * write acknowledged before the request arrived). On PostgreSQL in both runs: the
 * embedded database serves one process.
 */

const SERVER_DIR = join(import.meta.dirname, '../../sync-server');
const cleanups: (() => Promise<unknown> | unknown)[] = [];
let url: string;
let a: ServerProcess;
let b: ServerProcess;

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function instance(): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-instance-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const s = await spawnServer({ DATABASE_URL: url, DATA_DIR: dataDir, RATE_LIMIT_PER_TOKEN: '0', RATE_LIMIT_PER_ADDRESS: '0' });
  cleanups.push(async () => {
    s.proc.kill('SIGTERM');
    await s.exited;
  });
  return s;
}

/** `npm run admin`, in-process (setup). */
async function admin(...args: string[]): Promise<string> {
  const out: string[] = [];
  const errors: string[] = [];
  const code = await runAdmin(
    args,
    (l) => out.push(l),
    { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
    (l) => errors.push(l),
  );
  if (code !== 0) throw new Error(`admin ${args.join(' ')} failed: ${errors.join('\n')}`);
  return out.at(-1) as string;
}

/** `npm run admin` as its own process, while both servers run. */
async function adminProcess(...args: string[]): Promise<string> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], {
    cwd: SERVER_DIR,
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
  if (code !== 0) throw new Error(`admin ${args.join(' ')} exited ${code}: ${out}`);
  return out.trim();
}

async function call(server: ServerProcess, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const get = (server: ServerProcess, path: string, token: string) => call(server, 'GET', path, token);

/** Reads on every instance twice, so each keeps the answer. */
async function warm(path: string, token: string) {
  for (const s of [a, b]) {
    await get(s, path, token);
    await get(s, path, token);
  }
}

let orgId: string;
let adaToken: string;
let spaceId: string;

beforeAll(async () => {
  const fresh = await freshPostgresUrl();
  url = fresh.url;
  cleanups.push(fresh.drop);
  orgId = await admin('org', 'create', 'Acme');
  await admin('user', 'create', 'ada@acme.test', '--org', orgId, '--role', 'admin');
  adaToken = await admin('token', 'create', 'ada@acme.test');
  [a, b] = [await instance(), await instance()];
  spaceId = (await call(a, 'POST', `/v1/orgs/${orgId}/spaces`, adaToken, { title: 'Handbook' })).body.id;
}, 300_000);

describe('two instances on one PostgreSQL, each with its cache warm', () => {
  it('a role changed on one instance shows on the next request to the other', async () => {
    await admin('user', 'create', 'bob@acme.test', '--org', orgId, '--role', 'read');
    const bob = await admin('token', 'create', 'bob@acme.test');
    const bobId = (await get(a, '/v1/user', bob)).body.id;
    await warm(`/v1/spaces/${spaceId}`, bob);
    for (const [writer, reader, role, edit] of [
      [a, b, 'edit', true],
      [b, a, 'read', false],
      [a, b, 'admin', true],
    ] as const) {
      expect((await call(writer, 'PATCH', `/v1/orgs/${orgId}/members/${bobId}`, adaToken, { role })).status).toBe(200);
      expect((await get(reader, `/v1/spaces/${spaceId}`, bob)).body.permissions.edit).toBe(edit);
    }
  });

  it('a space renamed on one instance, a member removed, SSO enforced', async () => {
    await admin('user', 'create', 'cy@acme.test', '--org', orgId, '--role', 'read');
    const cy = await admin('token', 'create', 'cy@acme.test');
    const cyId = (await get(a, '/v1/user', cy)).body.id;
    await warm(`/v1/spaces/${spaceId}`, cy);
    await warm(`/v1/orgs/${orgId}`, cy);
    await call(b, 'PATCH', `/v1/spaces/${spaceId}`, adaToken, { title: 'Renamed on B' });
    expect((await get(a, `/v1/spaces/${spaceId}`, cy)).body.title).toBe('Renamed on B');
    await call(a, 'PATCH', `/v1/orgs/${orgId}`, adaToken, { sso: true });
    expect((await get(b, `/v1/orgs/${orgId}`, cy)).status).toBe(403);
    await call(b, 'PATCH', `/v1/orgs/${orgId}`, adaToken, { sso: false });
    expect((await get(a, `/v1/orgs/${orgId}`, cy)).status).toBe(200);
    expect((await call(a, 'DELETE', `/v1/orgs/${orgId}/members/${cyId}`, adaToken)).status).toBe(204);
    expect((await get(b, `/v1/orgs/${orgId}`, cy)).status).toBe(404);
    expect((await get(b, `/v1/spaces/${spaceId}`, cy)).status).toBe(404);
  });

  it('the admin command line, run while both serve: a role change and a revoked token', async () => {
    await admin('user', 'create', 'dee@acme.test', '--org', orgId, '--role', 'read');
    const dee = await admin('token', 'create', 'dee@acme.test');
    await warm(`/v1/spaces/${spaceId}`, dee);
    await adminProcess('user', 'role', 'dee@acme.test', '--org', orgId, '--role', 'edit');
    for (const s of [a, b]) expect((await get(s, `/v1/spaces/${spaceId}`, dee)).body.permissions.edit).toBe(true);
    expect(await adminProcess('token', 'revoke', dee)).toContain('Token revoked.');
    for (const s of [a, b]) expect((await get(s, `/v1/spaces/${spaceId}`, dee)).status).toBe(401);
  });

  it("an instance's LISTEN connection killed: answers stay right, before and after it reconnects", async () => {
    await admin('user', 'create', 'eve@acme.test', '--org', orgId, '--role', 'read');
    const eve = await admin('token', 'create', 'eve@acme.test');
    const eveId = (await get(a, '/v1/user', eve)).body.id;
    await warm(`/v1/spaces/${spaceId}`, eve);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    cleanups.push(() => c.end());
    const listenerOfB = `quire-listener-${b.proc.pid}`;
    const killed = await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [listenerOfB]);
    expect(killed.rowCount).toBe(1);
    await call(a, 'PATCH', `/v1/orgs/${orgId}/members/${eveId}`, adaToken, { role: 'edit' });
    expect((await get(b, `/v1/spaces/${spaceId}`, eve)).body.permissions.edit).toBe(true);
    // Back: B listens again on a new connection.
    for (;;) {
      const back = await c.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [listenerOfB]);
      if (back.rowCount) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await warm(`/v1/spaces/${spaceId}`, eve);
    await call(a, 'PATCH', `/v1/orgs/${orgId}/members/${eveId}`, adaToken, { role: 'read' });
    expect((await get(b, `/v1/spaces/${spaceId}`, eve)).body.permissions.edit).toBe(false);
  });
});

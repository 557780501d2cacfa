import { type AddressInfo, Socket } from 'node:net';
import type { ServerType } from '@hono/node-server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import type { Deps } from '../platform/deps';
import { createLogger } from '../../logger';
import { listenHttp } from '../../server';
import type { Db } from '../../store/db';
import { setGrant } from '../../store/grants';
import { addMember } from '../../store/members';
import { createOrg } from '../../store/organizations';
import { createTeam, upsertTeamMember } from '../../store/teams';
import { createToken, revokeToken } from '../../store/tokens';
import { ensureUser } from '../../store/users';
import { freshTestDb, testAdapter } from '../../testing/databases';
import { spaceRow } from './hotRows';
import { readModelOf } from './readModel';

/**
 * The read model seen from outside: every change that decides an answer shows on the very
 * next request, whichever way it was written (API, store functions as the admin command
 * line uses them, plain SQL), with the cache warm. Requests go through a real HTTP server,
 * so cached response bytes are exercised too.
 */

let db: Db;
/** The same database read with the read model off: the reference answers. */
let uncachedDb: Db;
let servers: ServerType[] = [];
let cached: string;
let uncached: string;
let n = 0;

async function serve(deps: Deps): Promise<string> {
  const server = await listenHttp(deps, 0, '127.0.0.1');
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  db = await freshTestDb();
  await readModelOf(db).ready;
  // A second handle on the same database whose read model keeps nothing.
  uncachedDb = Object.create(db) as Db;
  readModelOf(uncachedDb, { maxEntries: 0 });
  const config = { ...loadConfig({}), publicUrl: 'http://quire.test', rateLimitPerAddress: 0, rateLimitPerToken: 0 };
  const log = createLogger('silent');
  cached = await serve({ db, config, log });
  uncached = await serve({ db: uncachedDb, config, log });
});

afterAll(async () => {
  for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()));
  await db?.close();
});

async function call(base: string, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

const get = (path: string, token: string) => call(cached, 'GET', path, token);

async function user(name: string) {
  const u = await ensureUser(db, `${name}-${++n}@example.com`, name);
  return { id: u.id, token: await createToken(db, u.id) };
}

async function setup() {
  const admin = await user('admin');
  const org = await createOrg(db, `Org ${++n}`, admin.id);
  const reader = await user('reader');
  await addMember(db, org.id, reader.id, 'read');
  const space = (await call(cached, 'POST', `/v1/orgs/${org.id}/spaces`, admin.token, { title: 'Handbook' })).body.id as string;
  return { orgId: org.id, admin, reader, spaceId: space };
}

/** Reads twice so the answer is kept, and checks the second came from the read model. */
async function warm(path: string, token: string) {
  const first = await get(path, token);
  const hits = readModelOf(db).stats.responseHits;
  const second = await get(path, token);
  expect({ status: second.status, body: second.body }).toEqual({ status: first.status, body: first.body });
  // Answered from cached bytes, before routing.
  expect(readModelOf(db).stats.responseHits).toBe(hits + 1);
  return second;
}

describe('every change shows on the very next request, with the cache warm', () => {
  it('revoking a token', async () => {
    const { reader, spaceId } = await setup();
    expect((await warm(`/v1/spaces/${spaceId}`, reader.token)).status).toBe(200);
    // What `npm run admin -- token revoke` runs.
    await revokeToken(db, reader.token);
    expect((await get(`/v1/spaces/${spaceId}`, reader.token)).status).toBe(401);
  });

  it('removing a member', async () => {
    const { orgId, admin, reader, spaceId } = await setup();
    await warm(`/v1/spaces/${spaceId}`, reader.token);
    await warm(`/v1/orgs/${orgId}`, reader.token);
    expect((await call(cached, 'DELETE', `/v1/orgs/${orgId}/members/${reader.id}`, admin.token)).status).toBe(204);
    expect((await get(`/v1/spaces/${spaceId}`, reader.token)).status).toBe(404);
    expect((await get(`/v1/orgs/${orgId}`, reader.token)).status).toBe(404);
  });

  it('changing a role', async () => {
    const { orgId, admin, reader, spaceId } = await setup();
    expect((await warm(`/v1/spaces/${spaceId}`, reader.token)).body.permissions.edit).toBe(false);
    await warm(`/v1/orgs/${orgId}/members?limit=10`, admin.token);
    await call(cached, 'PATCH', `/v1/orgs/${orgId}/members/${reader.id}`, admin.token, { role: 'edit' });
    expect((await get(`/v1/spaces/${spaceId}`, reader.token)).body.permissions.edit).toBe(true);
    const members = (await get(`/v1/orgs/${orgId}/members?limit=10`, admin.token)).body.items as { user: { id: string }; role: string }[];
    expect(members.find((m) => m.user.id === reader.id)?.role).toBe('edit');
    // A guest without a grant sees nothing.
    await call(cached, 'PATCH', `/v1/orgs/${orgId}/members/${reader.id}`, admin.token, { role: null });
    expect((await get(`/v1/spaces/${spaceId}`, reader.token)).status).toBe(404);
  });

  it('a team and its grant', async () => {
    const { orgId, admin, spaceId } = await setup();
    const guest = await user('guest');
    await addMember(db, orgId, guest.id, null);
    const teamId = await createTeam(db, orgId, 'Writers');
    await upsertTeamMember(db, teamId, guest.id, undefined);
    await setGrant(db, { resource_id: spaceId, resource_kind: 'space', principal_id: teamId, principal_kind: 'team', role: 'edit' });
    expect((await warm(`/v1/spaces/${spaceId}`, guest.token)).body.permissions.edit).toBe(true);
    expect((await call(cached, 'DELETE', `/v1/orgs/${orgId}/teams/${teamId}/members/${guest.id}`, admin.token)).status).toBe(204);
    expect((await get(`/v1/spaces/${spaceId}`, guest.token)).status).toBe(404);
  });

  it('a grant to a user', async () => {
    const { orgId, spaceId } = await setup();
    const guest = await user('guest');
    await addMember(db, orgId, guest.id, null);
    await warm(`/v1/orgs/${orgId}`, guest.token);
    expect((await get(`/v1/spaces/${spaceId}`, guest.token)).status).toBe(404);
    await setGrant(db, { resource_id: spaceId, resource_kind: 'space', principal_id: guest.id, principal_kind: 'user', role: 'comment' });
    const seen = await get(`/v1/spaces/${spaceId}`, guest.token);
    expect(seen.status).toBe(200);
    expect(seen.body.permissions.comment).toBe(true);
    // Plain SQL, as any other code path might write it.
    await db.query('UPDATE grants SET role = $1 WHERE resource_id = $2 AND principal_id = $3', ['edit', spaceId, guest.id]);
    expect((await get(`/v1/spaces/${spaceId}`, guest.token)).body.permissions.edit).toBe(true);
  });

  it("a collection's default level", async () => {
    const { orgId, admin, reader } = await setup();
    const collectionId = (await call(cached, 'POST', `/v1/orgs/${orgId}/collections`, admin.token, { title: 'Guides' })).body.id as string;
    const spaceId = (await call(cached, 'POST', `/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Inside', parent: collectionId })).body
      .id as string;
    expect((await warm(`/v1/spaces/${spaceId}`, reader.token)).body.permissions.edit).toBe(false);
    const patched = await call(cached, 'PATCH', `/v1/collections/${collectionId}`, admin.token, { defaultLevel: 'edit' });
    expect(patched.status).toBe(200);
    expect((await get(`/v1/spaces/${spaceId}`, reader.token)).body.permissions.edit).toBe(true);
  });

  it('SSO enforcement', async () => {
    const { orgId, admin, reader, spaceId } = await setup();
    await warm(`/v1/spaces/${spaceId}`, reader.token);
    await warm(`/v1/orgs/${orgId}`, reader.token);
    expect((await call(cached, 'PATCH', `/v1/orgs/${orgId}`, admin.token, { sso: true })).status).toBe(200);
    const refused = await get(`/v1/orgs/${orgId}`, reader.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/single sign-on/);
    expect((await get(`/v1/spaces/${spaceId}`, reader.token)).status).toBe(404);
    await call(cached, 'PATCH', `/v1/orgs/${orgId}`, admin.token, { sso: false });
    expect((await get(`/v1/spaces/${spaceId}`, reader.token)).status).toBe(200);
    expect((await get(`/v1/orgs/${orgId}`, reader.token)).status).toBe(200);
  });

  it('a space and its counters, changed through the API', async () => {
    const { admin, reader, spaceId } = await setup();
    await warm(`/v1/spaces/${spaceId}`, reader.token);
    await call(cached, 'PATCH', `/v1/spaces/${spaceId}`, admin.token, { title: 'Renamed' });
    expect((await get(`/v1/spaces/${spaceId}`, reader.token)).body.title).toBe('Renamed');
    const cr = await call(cached, 'POST', `/v1/spaces/${spaceId}/change-requests`, admin.token, { subject: 'Draft' });
    expect(cr.status).toBe(200);
    expect((await get(`/v1/spaces/${spaceId}`, reader.token)).body.changeRequests).toBe(1);
  });

  it('a cached answer still counts against the rate limits and sends their headers', async () => {
    const config = { ...loadConfig({}), publicUrl: 'http://quire.test', rateLimitPerAddress: 0, rateLimitPerToken: 3 };
    const limited = await serve({ db, config, log: createLogger('silent') });
    const { reader, spaceId } = await setup();
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call(limited, 'GET', `/v1/spaces/${spaceId}`, reader.token));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    expect(answers[3]?.headers.get('retry-after')).toBeTruthy();
    expect(answers[3]?.body.error.code).toBe(429);
  });
});

describe('reads racing writes', () => {
  it('a read that saw the old row and finished after the write is never kept', async () => {
    const { spaceId } = await setup();
    // A handle whose reads wait at a gate after the database answered: the interleaving
    // read → write committed → read finishes, forced.
    let open!: () => void;
    let gate = new Promise<void>((resolve) => (open = resolve));
    let answered!: () => void;
    const readAnswered = new Promise<void>((resolve) => (answered = resolve));
    const slow = Object.create(db) as Db;
    slow.query = async (sql, params) => {
      const rows = await db.query(sql, params);
      answered();
      await gate;
      return rows as never;
    };
    await readModelOf(slow).ready;
    const racing = spaceRow(slow, spaceId);
    // The database has answered the read (the old row) before the write commits.
    await readAnswered;
    await db.query('UPDATE spaces SET title = $1 WHERE id = $2', ['After', spaceId]);
    // On PostgreSQL the write's notification arrives asynchronously: wait until this process heard it.
    await readModelOf(slow).fence();
    open();
    expect((await racing)?.title).toBe('Handbook');
    gate = Promise.resolve();
    expect((await spaceRow(slow, spaceId))?.title).toBe('After');
    expect(readModelOf(slow).stats.discarded).toBeGreaterThan(0);
  });
});

describe('response bytes racing writes', () => {
  it('an answer whose read of the database came before a write is not served again after it', async () => {
    const { reader, spaceId } = await setup();
    // A server on a handle whose read of this space's row, once armed, waits after the
    // database answered: the write then lands between that read and the keeping of the bytes.
    let armed = false;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let answered!: () => void;
    const readAnswered = new Promise<void>((resolve) => (answered = resolve));
    const slow = Object.create(db) as Db;
    slow.query = async (sql, params) => {
      const rows = await db.query(sql, params);
      if (armed && /\bFROM spaces\b/.test(sql) && params?.includes(spaceId)) {
        armed = false;
        answered();
        await gate;
      }
      return rows as never;
    };
    const model = readModelOf(slow);
    await model.ready;
    const config = { ...loadConfig({}), publicUrl: 'http://quire.test', rateLimitPerAddress: 0, rateLimitPerToken: 0 };
    const base = await serve({ db: slow, config, log: createLogger('silent') });
    const path = `/v1/spaces/${spaceId}`;

    armed = true;
    const racing = call(base, 'GET', path, reader.token);
    await readAnswered;
    await db.query('UPDATE spaces SET title = $1 WHERE id = $2', ['Written during the read', spaceId]);
    // On PostgreSQL the write's notification arrives asynchronously: wait until this process heard it.
    await model.fence();
    open();
    // The racing request itself answers what it read.
    expect((await racing).body.title).toBe('Handbook');

    const hits = model.stats.responseHits;
    const next = await call(base, 'GET', path, reader.token);
    expect(next.status).toBe(200);
    expect(next.body.title).toBe('Written during the read');
    expect(model.stats.responseHits).toBe(hits);
    // Answers that raced nothing are kept and served from bytes again.
    const again = await call(base, 'GET', path, reader.token);
    expect(again.body).toEqual(next.body);
    expect(model.stats.responseHits).toBe(hits + 1);
  });
});

describe('cache on and off give the same answers', () => {
  it('for any sequence of writes and reads', async () => {
    const { orgId, admin, reader, spaceId } = await setup();
    const other = await user('other');
    await addMember(db, orgId, other.id, 'comment');
    const tokens = { admin: admin.token, reader: reader.token, other: other.token };
    const paths = [`/v1/spaces/${spaceId}`, `/v1/orgs/${orgId}`, `/v1/orgs/${orgId}/members?limit=5`, `/v1/orgs/${orgId}/spaces`];
    const roles = ['read', 'comment', 'edit', 'admin', null] as const;
    const who = fc.constantFrom<keyof typeof tokens>('admin', 'reader', 'other');
    const op = fc.oneof(
      fc.record({ kind: fc.constant('read' as const), path: fc.constantFrom(...paths), as: who }),
      fc.record({ kind: fc.constant('role' as const), user: fc.constantFrom(reader.id, other.id), role: fc.constantFrom(...roles) }),
      fc.record({ kind: fc.constant('title' as const), title: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '') }),
      fc.record({ kind: fc.constant('default' as const), level: fc.constantFrom('read', 'edit', 'inherit') }),
      fc.record({
        kind: fc.constant('grant' as const),
        user: fc.constantFrom(reader.id, other.id),
        role: fc.constantFrom('read', 'edit', 'admin'),
      }),
      fc.record({ kind: fc.constant('sso' as const), on: fc.boolean() }),
      fc.record({ kind: fc.constant('rename' as const), user: fc.constantFrom(reader.id, other.id) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 25 }), async (ops) => {
        for (const o of ops) {
          if (o.kind === 'read') {
            const [a, b] = [await call(cached, 'GET', o.path, tokens[o.as]), await call(uncached, 'GET', o.path, tokens[o.as])];
            expect({ status: a.status, body: a.body }).toEqual({ status: b.status, body: b.body });
          } else if (o.kind === 'role') {
            await call(cached, 'PATCH', `/v1/orgs/${orgId}/members/${o.user}`, admin.token, { role: o.role });
          } else if (o.kind === 'title') {
            await call(uncached, 'PATCH', `/v1/spaces/${spaceId}`, admin.token, { title: o.title });
          } else if (o.kind === 'default') {
            await call(cached, 'PATCH', `/v1/spaces/${spaceId}`, admin.token, { defaultLevel: o.level });
          } else if (o.kind === 'grant') {
            await setGrant(db, {
              resource_id: spaceId,
              resource_kind: 'space',
              principal_id: o.user,
              principal_kind: 'user',
              role: o.role,
            });
          } else if (o.kind === 'sso') {
            await call(uncached, 'PATCH', `/v1/orgs/${orgId}`, admin.token, { sso: o.on });
          } else {
            await db.query('UPDATE users SET display_name = $1 WHERE id = $2', [`Renamed ${++n}`, o.user]);
          }
        }
      }),
      { numRuns: 12 },
    );
    expect(readModelOf(db).stats.hits).toBeGreaterThan(0);
  });
});

describe.runIf(testAdapter() === 'postgres')('the LISTEN connection', () => {
  it('slow to deliver: a request arriving after an acknowledged write still reads past it (the fence)', async () => {
    const { spaceId } = await setup();
    const pid = db.backendOfListener?.();
    expect(pid).toBeTypeOf('number');
    // A read model of its own, as another instance has; the write comes from elsewhere.
    const other = Object.create(db) as Db;
    const model = readModelOf(other);
    await model.ready;
    await model.fence();
    expect((await spaceRow(other, spaceId))?.title).toBe('Handbook');
    expect(await readModelOf(other).get(`space:${spaceId}`)).toBeTruthy();
    // The listener's socket stops reading: notifications wait in the kernel, as on a slow network.
    const [{ client_port } = { client_port: 0 }] = await db.query<{ client_port: number }>(
      'SELECT client_port FROM pg_stat_activity WHERE pid = $1',
      [pid],
    );
    const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
    const socket = handles.find((h) => h instanceof Socket && h.localPort === client_port) as Socket | undefined;
    expect(socket).toBeDefined();
    socket?.pause();
    try {
      await uncachedDb.query('UPDATE spaces SET title = $1 WHERE id = $2', ['Written elsewhere', spaceId]);
      // A request arriving now: fence, then read.
      const request = model.fence().then(() => spaceRow(other, spaceId));
      await uncachedDb.query('SELECT 1');
      socket?.resume();
      expect((await request)?.title).toBe('Written elsewhere');
    } finally {
      socket?.resume();
    }
  });

  it('killed: answers stay right while it is down, and the cache serves again once it is back', async () => {
    const { orgId, admin, reader, spaceId } = await setup();
    const model = readModelOf(db);
    await warm(`/v1/spaces/${spaceId}`, reader.token);
    const pid = db.backendOfListener?.();
    expect(pid).toBeTypeOf('number');
    const down = new Promise<void>((resolve) => {
      const off = db.onListening((up) => {
        if (!up) {
          off();
          resolve();
        }
      });
    });
    const back = new Promise<void>((resolve) => {
      let wasDown = false;
      const off = db.onListening((up) => {
        if (!up) wasDown = true;
        else if (wasDown) {
          off();
          resolve();
        }
      });
    });
    // From another connection, as an operator or a failover would.
    await uncachedDb.query('SELECT pg_terminate_backend($1)', [pid]);
    await down;
    expect(model.active).toBe(false);
    // Written while nobody listens: the notification is lost for good.
    await db.query('UPDATE org_members SET role = $1 WHERE org_id = $2 AND user_id = $3', ['edit', orgId, reader.id]);
    expect((await get(`/v1/spaces/${spaceId}`, reader.token)).body.permissions.edit).toBe(true);
    await back;
    expect(model.active).toBe(true);
    expect(db.backendOfListener?.()).not.toBe(pid);
    expect((await warm(`/v1/spaces/${spaceId}`, reader.token)).body.permissions.edit).toBe(true);
    await call(cached, 'PATCH', `/v1/orgs/${orgId}/members/${reader.id}`, admin.token, { role: 'read' });
    expect((await get(`/v1/spaces/${spaceId}`, reader.token)).body.permissions.edit).toBe(false);
  });
});

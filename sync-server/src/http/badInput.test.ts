import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { type RunningServer, startServer } from '../server';
import { NO_COLLECTION, NO_MEMBER, NO_ORG, NO_TEAM, UNKNOWN_ID, expectError } from '../testing/apiExpect';
import { freshTestDb } from '../testing/databases';
import { type TestUser, TestServer } from '../testing/harness';

/**
 * Bad input of every kind answers a clear 4xx in the error shape and changes nothing.
 * Most cases go through the in-process app; what depends on real HTTP framing (body
 * length, chunked bodies, content types, raw bytes) goes through a listening server.
 */

const BOOTSTRAP_TOKEN = 'bad-input-bootstrap-token-0123456789';
const MIB = 1024 * 1024;

let t: TestServer;
let real: RunningServer;
let dataDir: string;
let orgId: string;
let admin: TestUser;
let reader: TestUser;

beforeAll(async () => {
  t = await TestServer.start();
  const org = await t.org(['read']);
  orgId = org.orgId;
  admin = org.admin;
  reader = org.members[0] as TestUser;
  dataDir = mkdtempSync(join(tmpdir(), 'quire-bad-input-'));
  const config = { ...loadConfig({}), port: 0, host: '127.0.0.1', dataDir, bootstrapAdminToken: BOOTSTRAP_TOKEN, logLevel: 'silent' };
  real = await startServer(config, createLogger('silent'), { store: { db: await freshTestDb(), unlock: () => {} } });
});
afterAll(async () => {
  await real?.stop();
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * One request over a socket with full control of the framing. `chunks` sends the body with
 * Transfer-Encoding: chunked; the server may answer (413) before the body is through, so
 * write errors after the answer are expected and ignored.
 */
function raw(
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string | Buffer; chunks?: Buffer[] } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${BOOTSTRAP_TOKEN}`, ...opts.headers };
    if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
    if (opts.chunks) headers['transfer-encoding'] = 'chunked';
    const req = httpRequest({ host: '127.0.0.1', port: real.port, method, path, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // keep the text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    let answered = false;
    req.on('response', () => {
      answered = true;
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (opts.chunks) {
      // Like curl: wait for 100 Continue, then send one chunk at a time and stop as soon as
      // the answer is in. Writing on after the server has answered makes it reset the
      // connection, and a reset can drop the answer before it is read.
      req.setHeader('expect', '100-continue');
      req.once('continue', async () => {
        for (const chunk of opts.chunks ?? []) {
          if (answered || req.destroyed) return;
          await new Promise<void>((r) => req.write(chunk, () => r()));
          await new Promise((r) => setImmediate(r));
        }
        if (!answered) req.end();
      });
      req.flushHeaders();
    } else {
      req.end(opts.body);
    }
  });
}

const json = { 'content-type': 'application/json' };

describe('request framing, over a real socket', () => {
  let realOrg: string;
  beforeAll(async () => {
    const orgs = await raw('GET', '/v1/orgs');
    realOrg = orgs.body.items[0].id;
  });

  it('refuses a body over 1 MiB sent with Content-Length: 413 in the error shape', async () => {
    const body = JSON.stringify({ title: 'x'.repeat(MIB) });
    const res = await raw('POST', '/v1/orgs', { headers: json, body });
    expectError(res, 413, `Request body is larger than ${MIB} bytes.`);
  });

  it('refuses a body over 1 MiB sent chunked: 413 in the error shape', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const chunks = [Buffer.from('{"title":"'), ...Array.from({ length: 18 }, () => chunk), Buffer.from('"}')];
    const res = await raw('POST', '/v1/orgs', { headers: json, chunks });
    expectError(res, 413, `Request body is larger than ${MIB} bytes.`);
  });

  it('takes a body just under the limit, chunked or not', async () => {
    const instructions = { object: 'document', nodes: [{ object: 'block', type: 'paragraph', text: 'x'.repeat(MIB - 200) }] };
    const body = JSON.stringify({ instructions });
    expect(Buffer.byteLength(body)).toBeLessThan(MIB);
    expect((await raw('PUT', `/v1/orgs/${realOrg}/agent-instructions`, { headers: json, body })).status).toBe(200);
    const chunks = [Buffer.from(body.slice(0, 1000)), Buffer.from(body.slice(1000))];
    expect((await raw('PUT', `/v1/orgs/${realOrg}/agent-instructions`, { headers: json, chunks })).status).toBe(200);
  });

  it('refuses malformed JSON', async () => {
    for (const body of ['{"title":', "{'title':'a'}", '{"title":"a"} trailing', '\u0000']) {
      expectError(await raw('POST', '/v1/orgs', { headers: json, body }), 400, 'Invalid body: malformed JSON.');
    }
  });

  it('refuses a body that is not sent as JSON, with 415 and the error shape', async () => {
    const text = await raw('POST', '/v1/orgs', { headers: { 'content-type': 'text/plain' }, body: '{"title":"a"}' });
    expectError(text, 415, 'Request bodies must be JSON sent as Content-Type: application/json (got "text/plain").');
    const form = await raw('POST', '/v1/orgs', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'title=a' });
    expectError(form, 415, /^Request bodies must be JSON/);
    const none = await raw('POST', '/v1/orgs', { body: '{"title":"a"}' });
    expectError(none, 415, 'Request bodies must be JSON sent as Content-Type: application/json (got "none").');
    // A charset parameter is fine.
    const charset = await raw('POST', '/v1/orgs', {
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"title":"Charset"}',
    });
    expect(charset.status).toBe(201);
  });

  it('refuses a PATCH body that is not JSON, or not sent as JSON, though all its fields are optional', async () => {
    const before = (await raw('GET', `/v1/orgs/${realOrg}`)).body;
    expectError(
      await raw('PATCH', `/v1/orgs/${realOrg}`, { headers: { 'content-type': 'text/plain' }, body: '{"title":"Plain"}' }),
      415,
      'Request bodies must be JSON sent as Content-Type: application/json (got "text/plain").',
    );
    expectError(await raw('PATCH', `/v1/orgs/${realOrg}`, { headers: json, body: '{"title":' }), 400, 'Invalid body: malformed JSON.');
    expectError(await raw('PATCH', `/v1/orgs/${realOrg}`, { headers: json, body: '' }), 400, 'Invalid body: empty; send a JSON object.');
    expectError(await raw('PATCH', `/v1/orgs/${realOrg}`, { headers: json, body: '   ' }), 400, 'Invalid body: malformed JSON.');
    expect((await raw('GET', `/v1/orgs/${realOrg}`)).body).toEqual(before);
  });

  it('refuses a body on an operation that takes none, unless it is empty or {}', async () => {
    const spaces = async () => (await raw('GET', `/v1/orgs/${realOrg}/spaces?limit=1000`)).body.count as number;
    const space = await raw('POST', `/v1/orgs/${realOrg}/spaces`, { headers: json, body: '{"title":"Original"}' });
    const duplicate = `/v1/spaces/${space.body.id}/duplicate`;
    const count = await spaces();
    expectError(await raw('POST', duplicate, { headers: json, body: '{"title":"Copy"}' }), 400, 'Unknown body field: "title".');
    expectError(await raw('POST', duplicate, { headers: json, body: '"Copy"' }), 400, 'Invalid body: this operation takes no body.');
    expectError(await raw('POST', duplicate, { headers: json, body: '{"title":' }), 400, 'Invalid body: malformed JSON.');
    expectError(await raw('POST', duplicate, { headers: { 'content-type': 'text/plain' }, body: 'copy' }), 415);
    expect(await spaces()).toBe(count);
    expect((await raw('POST', duplicate, { headers: json, body: '{}' })).status).toBe(200);
    expect((await raw('POST', duplicate, { headers: json, body: '' })).status).toBe(200);
    expect((await raw('POST', duplicate)).status).toBe(200);
    expect(await spaces()).toBe(count + 3);
  });

  it('refuses an empty body on a route that needs one', async () => {
    expectError(await raw('POST', '/v1/orgs', { headers: json, body: '' }), 400, 'Invalid body: empty; send a JSON object.');
    expectError(await raw('POST', '/v1/orgs'), 400, 'Missing body field "title".');
    expectError(
      await raw('PATCH', `/v1/orgs/${realOrg}`, { headers: json, body: '{}' }),
      400,
      'Invalid body: must set at least one field.',
    );
    expectError(await raw('PATCH', `/v1/orgs/${realOrg}`), 400, 'Invalid body: must set at least one field.');
    expectError(
      await raw('POST', '/v1/orgs', { headers: json, body: 'null' }),
      400,
      'Invalid body: Invalid input: expected object, received null.',
    );
    expectError(
      await raw('POST', '/v1/orgs', { headers: json, body: '[]' }),
      400,
      'Invalid body: Invalid input: expected object, received array.',
    );
  });

  it('refuses nesting deeper than the limit and NUL characters anywhere, before any handler', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { a: deep };
    expectError(
      await raw('POST', '/v1/orgs', { headers: json, body: JSON.stringify({ title: 'T', deep }) }),
      400,
      'Invalid body: nested deeper than 32 levels.',
    );
    expectError(
      await raw('POST', '/v1/orgs', { headers: json, body: JSON.stringify({ title: 'a\u0000b' }) }),
      400,
      'Invalid body field "title": must not contain NUL characters.',
    );
    expectError(
      await raw('POST', '/v1/orgs', { headers: json, body: JSON.stringify({ title: 'T', ['k\u0000']: 1 }) }),
      400,
      'Invalid body: a field name contains a NUL character.',
    );
    const orgs = await raw('GET', '/v1/orgs?limit=1000');
    expect(orgs.body.items.map((o: { title: string }) => o.title).sort()).toEqual(['Charset', 'My organization']);
  });
});

describe('fields', () => {
  it('refuses unknown fields, naming them', async () => {
    expectError(await t.post('/v1/orgs', admin.token, { title: 'A', owner: 'me' }), 400, 'Unknown body field: "owner".');
    expectError(await t.post('/v1/orgs', admin.token, { title: 'A', a: 1, b: 2 }), 400, 'Unknown body fields: "a", "b".');
    expectError(
      await t.patch(`/v1/orgs/${orgId}`, admin.token, { mergeRules: { type: 'inherit', extra: true } }),
      400,
      /^Unknown body field: "mergeRules\.extra"\.|^Invalid body field "mergeRules"/,
    );
  });

  it('refuses wrong types, naming the field', async () => {
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Typed' });
    expectError(await t.post('/v1/orgs', admin.token, { title: 5 }), 400, /"title"/);
    expectError(await t.post('/v1/orgs', admin.token, { title: 'A', emailDomains: 'example.com' }), 400, /"emailDomains"/);
    expectError(await t.patch(`/v1/orgs/${orgId}`, admin.token, { sso: 'yes' }), 400, /"sso"/);
    expectError(await t.patch(`/v1/spaces/${s.body.id}`, admin.token, { title: ['a'] }), 400, /"title"/);
    expectError(await t.patch(`/v1/spaces/${s.body.id}`, admin.token, { defaultLevel: 3 }), 400, /"defaultLevel"/);
    expectError(await t.post(`/v1/orgs/${orgId}/invites`, admin.token, { emails: [{ email: 'a@b.test' }] }), 400, /"emails\.0"/);
  });

  it('refuses ids with odd characters with 400, before any lookup', async () => {
    const msg = (field: string) => `Invalid path parameter field "${field}": must be an id (letters, digits, _ and -).`;
    for (const id of ['%27', 'a..b', '..%2F..%2Fetc', '%C3%A9t%C3%A9', '%F0%9F%98%80', 'a%20b', '%00', 'a%3Bb', 'x'.repeat(65)]) {
      expectError(await t.get(`/v1/spaces/${id}`, admin.token), 400, msg('spaceId'));
      expectError(await t.get(`/v1/collections/${id}`, admin.token), 400, msg('collectionId'));
      expectError(await t.get(`/v1/orgs/${id}`, admin.token), 400, msg('organizationId'));
      expectError(await t.get(`/v1/orgs/${orgId}/members/${id}`, admin.token), 400, msg('userId'));
      expectError(await t.get(`/v1/orgs/${orgId}/teams/${id}`, admin.token), 400, msg('teamId'));
    }
    // A bare `..` segment is resolved by URL parsing before routing: it names another path.
    expectError(await t.get('/v1/spaces/..', admin.token), 404, 'No matching route found.');
    expectError(
      await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { parent: "x' OR '1'='1" }),
      400,
      'Invalid body field "parent": must be an id (letters, digits, _ and -).',
    );
  });

  it('refuses NUL characters in query parameters', async () => {
    expectError(
      await t.get(`/v1/orgs/${orgId}/members?search=a%00`, admin.token),
      400,
      'Invalid query parameter field "search": must not contain NUL characters.',
    );
    expectError(
      await t.get(`/v1/orgs/${orgId}/teams?title=%00`, admin.token),
      400,
      'Invalid query parameter field "title": must not contain NUL characters.',
    );
  });
});

describe('length limits: at the limit accepted, past it refused', () => {
  const tooBig = (field: string, max: number, where = 'body') =>
    `Invalid ${where === 'body' ? 'body' : 'query parameter'} field "${field}": Too big: expected string to have <=${max} characters.`;
  const tooMany = (field: string, max: number) => `Invalid body field "${field}": Too big: expected array to have <=${max} items.`;

  it('titles: 256 characters', async () => {
    const at = 'T'.repeat(256);
    const past = 'T'.repeat(257);
    expect((await t.post('/v1/orgs', admin.token, { title: at })).body.title).toBe(at);
    expectError(await t.post('/v1/orgs', admin.token, { title: past }), 400, tooBig('title', 256));
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: at });
    expect(s.body.title).toBe(at);
    expectError(await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: past }), 400, tooBig('title', 256));
    expectError(await t.patch(`/v1/spaces/${s.body.id}`, admin.token, { title: past }), 400, tooBig('title', 256));
    expect((await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: at })).body.title).toBe(at);
    expectError(await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: past }), 400, tooBig('title', 256));
    const team = await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: at });
    expect(team.body.title).toBe(at);
    expectError(await t.patch(`/v1/orgs/${orgId}/teams/${team.body.id}`, admin.token, { title: past }), 400, tooBig('title', 256));
    // A 256-character title keeps its length when duplicated.
    expect((await t.post(`/v1/spaces/${s.body.id}/duplicate`, admin.token)).body.title).toHaveLength(256);
  });

  it('titles count characters, not bytes: 256 emoji pass', async () => {
    const at = '😀'.repeat(128);
    expect(at.length).toBe(256);
    expect((await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: at })).body.title).toBe(at);
  });

  it('collection description: 1000; space emoji: 32', async () => {
    expect((await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: 'D', description: 'd'.repeat(1000) })).status).toBe(200);
    expectError(
      await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: 'D', description: 'd'.repeat(1001) }),
      400,
      tooBig('description', 1000),
    );
    expect((await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { emoji: 'e'.repeat(50) })).status).toBe(201);
    expectError(await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { emoji: 'e'.repeat(51) }), 400, tooBig('emoji', 50));
  });

  it('query text filters and share keys: 256; page cursors: 512', async () => {
    expect((await t.get(`/v1/orgs/${orgId}/members?search=${'s'.repeat(256)}`, admin.token)).status).toBe(200);
    expectError(await t.get(`/v1/orgs/${orgId}/members?search=${'s'.repeat(257)}`, admin.token), 400, tooBig('search', 256, 'query'));
    expect((await t.get(`/v1/orgs/${orgId}/teams?title=${'s'.repeat(256)}`, admin.token)).status).toBe(200);
    expectError(await t.get(`/v1/orgs/${orgId}/teams?title=${'s'.repeat(257)}`, admin.token), 400, tooBig('title', 256, 'query'));
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Keyed' });
    expect((await t.get(`/v1/spaces/${s.body.id}?shareKey=${'k'.repeat(256)}`, admin.token)).status).toBe(200);
    expectError(await t.get(`/v1/spaces/${s.body.id}?shareKey=${'k'.repeat(257)}`, admin.token), 400, tooBig('shareKey', 256, 'query'));
    expectError(
      await t.get(`/v1/orgs/${orgId}/members?page=${'p'.repeat(512)}`, admin.token),
      400,
      'Invalid query parameter field "page": not a cursor from a previous answer.',
    );
    expectError(await t.get(`/v1/orgs/${orgId}/members?page=${'p'.repeat(513)}`, admin.token), 400, tooBig('page', 512, 'query'));
  });

  it('lists in bodies: invites 100, email domains 50, reviewers 100, merge rules 20, team changes 1000', async () => {
    const emails = (n: number) => Array.from({ length: n }, (_, i) => `limit-${i}@limits.test`);
    expect((await t.post(`/v1/orgs/${orgId}/invites`, admin.token, { emails: emails(100), role: 'read' })).body.users).toHaveLength(100);
    expectError(await t.post(`/v1/orgs/${orgId}/invites`, admin.token, { emails: emails(101) }), 400, tooMany('emails', 100));
    const domains = (n: number) => Array.from({ length: n }, (_, i) => `d${i}.limits.test`);
    expect((await t.patch(`/v1/orgs/${orgId}`, admin.token, { emailDomains: domains(50) })).body.emailDomains).toHaveLength(50);
    expectError(await t.patch(`/v1/orgs/${orgId}`, admin.token, { emailDomains: domains(51) }), 400, tooMany('emailDomains', 50));
    const rule = (n: number) => ({ rule: 'require_specific_reviewers', users: Array.from({ length: n }, () => admin.id) });
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Rules' });
    expect((await t.patch(`/v1/spaces/${s.body.id}`, admin.token, { mergeRules: { type: 'rules', rules: [rule(100)] } })).status).toBe(200);
    expectError(
      await t.patch(`/v1/spaces/${s.body.id}`, admin.token, { mergeRules: { type: 'rules', rules: [rule(101)] } }),
      400,
      tooMany('mergeRules.rules.0.users', 100),
    );
    const rules = (n: number) => Array.from({ length: n }, () => rule(1));
    expect((await t.patch(`/v1/spaces/${s.body.id}`, admin.token, { mergeRules: { type: 'rules', rules: rules(20) } })).status).toBe(200);
    expectError(
      await t.patch(`/v1/spaces/${s.body.id}`, admin.token, { mergeRules: { type: 'rules', rules: rules(21) } }),
      400,
      tooMany('mergeRules.rules', 20),
    );
    const team = await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: 'Big' });
    const refs = (n: number) => Array.from({ length: n }, () => reader.id);
    expect((await t.put(`/v1/orgs/${orgId}/teams/${team.body.id}/members`, admin.token, { add: refs(1000) })).status).toBe(204);
    expectError(
      await t.put(`/v1/orgs/${orgId}/teams/${team.body.id}/members`, admin.token, { add: refs(1001) }),
      400,
      tooMany('add', 1000),
    );
    expectError(
      await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: 'Too big', members: refs(1001) }),
      400,
      tooMany('members', 1000),
    );
  });

  it('hostnames: 253 characters; logo URLs: 2048', async () => {
    const label = 'a'.repeat(63);
    const at = `${label}.${label}.${label}.${'b'.repeat(61)}`;
    expect(at).toHaveLength(253);
    expect((await t.patch(`/v1/orgs/${orgId}`, admin.token, { hostname: at })).body.hostname).toBe(at);
    expectError(await t.patch(`/v1/orgs/${orgId}`, admin.token, { hostname: `${at.slice(0, -1)}bb` }), 400, tooBig('hostname', 253));
    const url = (n: number) => `https://cdn.limits.test/${'l'.repeat(n - 'https://cdn.limits.test/'.length)}`;
    expect((await t.patch(`/v1/orgs/${orgId}`, admin.token, { logo: url(2048) })).status).toBe(200);
    expectError(await t.patch(`/v1/orgs/${orgId}`, admin.token, { logo: url(2049) }), 400, tooBig('logo', 2048));
  });
});

describe('limit and page', () => {
  it.each([
    ['0', 'must be at least 1'],
    ['1001', 'must be at most 1000'],
    ['abc', 'must be a whole number from 1 to 1000'],
    ['1.5', 'must be a whole number from 1 to 1000'],
    ['', 'must be a whole number from 1 to 1000'],
  ])('refuses limit=%s on every list', async (limit, message) => {
    for (const path of [
      `/v1/orgs`,
      `/v1/orgs/${orgId}/members`,
      `/v1/orgs/${orgId}/teams`,
      `/v1/orgs/${orgId}/spaces`,
      `/v1/orgs/${orgId}/collections`,
    ]) {
      expectError(await t.get(`${path}?limit=${limit}`, admin.token), 400, `Invalid query parameter field "limit": ${message}.`);
    }
  });

  it('takes limit=1000', async () => {
    expect((await t.get(`/v1/orgs/${orgId}/members?limit=1000`, admin.token)).status).toBe(200);
    expect((await t.get(`/v1/orgs?limit=1000`, admin.token)).status).toBe(200);
  });

  it('refuses a bad page cursor', async () => {
    expectError(await t.get(`/v1/orgs/${orgId}/spaces?page=%%%`, admin.token), 400);
    expectError(
      await t.get(`/v1/orgs/${orgId}/spaces?page=bm9wZQ`, admin.token),
      400,
      'Invalid query parameter field "page": not a cursor from a previous answer.',
    );
  });
});

describe('storage is literal', () => {
  const nasty = [
    "'; DROP TABLE users; --",
    '<script>alert("x")</script>',
    'Robert"); DELETE FROM spaces; --',
    '%_\\',
    '{{7*7}} ${7*7}',
    "O'Brien & <b>Co</b>",
  ];

  it.each(nasty.map((s) => [s]))('stores and returns %s as is', async (value) => {
    const org = await t.post('/v1/orgs', admin.token, { title: value });
    expect(org.body.title).toBe(value);
    expect((await t.get(`/v1/orgs/${org.body.id}`, admin.token)).body.title).toBe(value);
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: value });
    expect((await t.get(`/v1/spaces/${s.body.id}`, admin.token)).body.title).toBe(value);
    const col = await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: value, description: value });
    expect((await t.get(`/v1/collections/${col.body.id}`, admin.token)).body).toMatchObject({ title: value, description: value });
    const team = await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: value });
    expect((await t.get(`/v1/orgs/${orgId}/teams/${team.body.id}`, admin.token)).body.title).toBe(value);
    // As a search, it matches itself literally and nothing else.
    const found = await t.get(`/v1/orgs/${orgId}/teams?title=${encodeURIComponent(value)}&limit=1000`, admin.token);
    expect(found.body.items.map((x: { title: string }) => x.title)).toEqual([value]);
    expect((await t.get(`/v1/orgs/${orgId}/members?search=${encodeURIComponent(value)}`, admin.token)).body).toEqual({
      items: [],
      count: 0,
    });
  });

  it('still has every table afterwards', async () => {
    expect((await t.get('/v1/user', admin.token)).status).toBe(200);
    expect((await t.get(`/v1/orgs/${orgId}/spaces?limit=1000`, admin.token)).body.count).toBeGreaterThan(0);
  });
});

describe('writes and reads', () => {
  it('a refused write changes nothing, not even updatedAt', async () => {
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Unchanged' });
    const before = (await t.get(`/v1/spaces/${s.body.id}`, admin.token)).body;
    expectError(await t.patch(`/v1/spaces/${s.body.id}`, reader.token, { title: 'By reader' }), 403);
    expectError(await t.patch(`/v1/spaces/${s.body.id}`, admin.token, { title: 'Ok', bogus: 1 }), 400);
    expectError(await t.patch(`/v1/spaces/${s.body.id}`, admin.token, { title: 'Ok', language: 'not a language' }), 400);
    expectError(await t.post(`/v1/spaces/${s.body.id}/move`, admin.token, {}), 400);
    expectError(await t.post(`/v1/spaces/${s.body.id}/move`, admin.token, { parent: UNKNOWN_ID }), 404);
    expectError(await t.post(`/v1/spaces/${s.body.id}/transfer`, admin.token, { organization: orgId }), 400);
    expect((await t.get(`/v1/spaces/${s.body.id}`, admin.token)).body).toEqual(before);
    const org = (await t.get(`/v1/orgs/${orgId}`, admin.token)).body;
    expectError(await t.patch(`/v1/orgs/${orgId}`, admin.token, { title: 'Changed', hostname: 'no' }), 400);
    expect((await t.get(`/v1/orgs/${orgId}`, admin.token)).body).toEqual(org);
  });

  it('two reads of an unchanged resource are byte-identical', async () => {
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Stable' });
    const col = await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: 'Stable' });
    const team = await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: 'Stable', members: [reader.id] });
    const bytes = async (path: string) => {
      const res = await t.app.request(`http://quire.test${path}`, { headers: { authorization: `Bearer ${admin.token}` } });
      expect(res.status).toBe(200);
      return res.text();
    };
    for (const path of [
      `/v1/orgs/${orgId}`,
      `/v1/spaces/${s.body.id}`,
      `/v1/collections/${col.body.id}`,
      `/v1/orgs/${orgId}/teams/${team.body.id}`,
      `/v1/orgs/${orgId}/members/${reader.id}`,
      `/v1/orgs/${orgId}/members?limit=1000`,
      `/v1/orgs/${orgId}/spaces?limit=1000`,
      `/v1/orgs/${orgId}/collections?limit=1000`,
      `/v1/orgs/${orgId}/teams/${team.body.id}/members`,
      `/v1/orgs/${orgId}/agent-instructions`,
      '/v1/user',
    ]) {
      expect(await bytes(path)).toBe(await bytes(path));
    }
  });

  it('DELETE answers 204 twice, with no body', async () => {
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Gone' });
    const col = await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: 'Gone' });
    const team = await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: 'Gone', members: [reader.id] });
    const member = await t.member(orgId, 'read');
    for (const path of [
      `/v1/spaces/${s.body.id}`,
      `/v1/collections/${col.body.id}`,
      `/v1/orgs/${orgId}/teams/${team.body.id}/members/${reader.id}`,
      `/v1/orgs/${orgId}/teams/${team.body.id}`,
      `/v1/orgs/${orgId}/members/${member.id}`,
      `/v1/orgs/${orgId}/link-invites/${UNKNOWN_ID}`,
      `/v1/spaces/${UNKNOWN_ID}`,
      `/v1/collections/${UNKNOWN_ID}`,
    ]) {
      for (let i = 0; i < 2; i++) {
        const res = await t.delete(path, admin.token);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 204, body: undefined });
      }
    }
  });

  it('unknown ids in sub-lists answer 404, not an empty list', async () => {
    expectError(await t.get(`/v1/orgs/${orgId}/members/unknown/spaces`, admin.token), 404, NO_MEMBER);
    expectError(await t.get(`/v1/orgs/${orgId}/members/unknown/teams`, admin.token), 404, NO_MEMBER);
    expectError(await t.get(`/v1/orgs/${orgId}/teams/unknown/members`, admin.token), 404, NO_TEAM);
    expectError(await t.get('/v1/collections/unknown/spaces', admin.token), 404, NO_COLLECTION);
    for (const sub of ['members', 'teams', 'spaces', 'collections', 'agent-instructions']) {
      expectError(await t.get(`/v1/orgs/unknown/${sub}`, admin.token), 404, NO_ORG);
    }
  });
});

import { newId } from '@quire/shared';
import { addFile } from '@quire/shared/content/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_ID, expectError } from '../testing/apiExpect';
import { type Answer, TestServer, type TestUser } from '../testing/harness';
import { createApp } from './app';
import { editLive } from '../testing/testEdits';

/**
 * The contracts every operation keeps (shared/DESIGN.md, "Contracts every part keeps"),
 * checked across the whole API at once: the operations come from the OpenAPI document, so
 * an operation added later is held to them without a line here. Two organizations hold one
 * resource of every kind each; the caller belongs to the first only.
 */

let t: TestServer;
let admin: TestUser;
let mine: Ids;
let theirs: Ids;
let doc: OpenApiDoc;

type Ids = Record<string, string>;
interface Operation {
  method: string;
  path: string;
  list: boolean;
  body: boolean;
}
interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: Schema }> };
        responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
      }
    >
  >;
  components: { schemas: Record<string, Schema> };
}
interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: unknown;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

const ok = (res: Answer, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

/** One resource of every kind in an organization, by the name of the path parameter that names it. */
async function fixture(owner: TestUser, orgId: string, reviewer: TestUser, slug: string): Promise<Ids> {
  const ids: Ids = { organizationId: orgId, userId: reviewer.id, specSlug: slug };
  ids.spaceId = ok(await t.post(`/v1/orgs/${orgId}/spaces`, owner.token, { title: 'Docs' }), 'space').id;
  ok(await t.post(`/v1/spaces/${ids.spaceId}/content/template`, owner.token, { id: 'getting-started' }), 'template');
  ids.fileId = await editLive(t.db, { spaceId: ids.spaceId as string }, (d) => {
    return addFile(d, { id: newId(), name: 'logo.png', contentType: 'image/png', size: 3 }).id;
  });
  ids.pageId = ok(await t.get(`/v1/spaces/${ids.spaceId}/content/pages`, owner.token), 'pages').pages[0].id;
  ids.revisionId = ok(await t.get(`/v1/spaces/${ids.spaceId}/content`, owner.token), 'content').id;
  const S = `/v1/spaces/${ids.spaceId}`;
  // Queued, never run here: git/info answers its state.
  ok(await t.post(`${S}/git/import`, owner.token, { url: 'https://93.184.216.34/docs.git', ref: 'main' }), 'git import');
  ok(
    await t.put(`${S}/git/sync`, owner.token, {
      url: 'https://93.184.216.34/docs.git',
      ref: 'main',
      provider: 'generic',
      firstSync: 'git',
    }),
    'git sync',
  );
  // Before the comments, so that their events give it deliveries.
  ids.webhookId = ok(
    await t.post(`/v1/orgs/${orgId}/webhooks`, owner.token, { url: 'https://93.184.216.34/hook', events: ['comment.created'] }),
    'webhook',
  ).id;
  ids.changeRequestId = ok(await t.post(`${S}/change-requests`, owner.token, { subject: 'Edit' }), 'change request').id;
  const CR = `${S}/change-requests/${ids.changeRequestId}`;
  ids.commentId = ok(await t.post(`${S}/comments`, owner.token, { body: { markdown: 'A comment' } }), 'comment').id;
  ids.commentReplyId = ok(
    await t.post(`${S}/comments/${ids.commentId}/replies`, owner.token, { body: { markdown: 'A reply' } }),
    'reply',
  ).id;
  ids.crCommentId = ok(await t.post(`${CR}/comments`, owner.token, { body: { markdown: 'On the change' } }), 'cr comment').id;
  ids.crCommentReplyId = ok(
    await t.post(`${CR}/comments/${ids.crCommentId}/replies`, owner.token, { body: { markdown: 'A reply' } }),
    'cr reply',
  ).id;
  ok(await t.post(`${CR}/requested-reviewers`, owner.token, { users: [reviewer.id] }), 'reviewer');
  ids.reviewId = ok(await t.post(`${CR}/reviews`, reviewer.token, { status: 'approved' }), 'review').id;
  ids.collectionId = ok(await t.post(`/v1/orgs/${orgId}/collections`, owner.token, { title: 'Guides' }), 'collection').id;
  ids.teamId = ok(await t.put(`/v1/orgs/${orgId}/teams`, owner.token, { title: 'Writers', members: [reviewer.id] }), 'team').id;
  const spec = '{"openapi":"3.0.0","info":{"title":"Pets","version":"1"},"paths":{}}';
  ok(await t.post(`/v1/orgs/${orgId}/openapi`, owner.token, { slug, source: { text: spec } }), 'spec');
  ids.translationId = ok(
    await t.post(`/v1/orgs/${orgId}/translations`, owner.token, { source: { space: ids.spaceId }, language: 'fr' }),
    'translation',
  ).id;
  ids.samlProviderId = ok(await t.post(`/v1/orgs/${orgId}/saml`, owner.token, { label: 'Okta' }), 'saml').id;
  const api = ok(await t.post(`/v1/orgs/${orgId}/spaces`, owner.token, { title: 'API' }), 'space').id;
  ids.otherSpaceId = api;
  ids.siteId = ok(await t.post(`/v1/orgs/${orgId}/sites`, owner.token, { title: 'Docs', spaces: [ids.spaceId] }), 'site').id;
  const SITE = `/v1/orgs/${orgId}/sites/${ids.siteId}`;
  ok(
    await t.put(`${SITE}/adaptive-schema`, owner.token, { jsonSchema: { type: 'object', properties: { beta: { type: 'boolean' } } } }),
    'schema',
  );
  ids.siteSectionId = ok(await t.post(`${SITE}/sections`, owner.token, { spaceId: api, title: 'API' }), 'section').id;
  ids.siteSectionGroupId = ok(await t.post(`${SITE}/section-groups`, owner.token, { title: 'More' }), 'group').id;
  ids.siteSpaceId = ok(await t.get(`${SITE}/site-spaces`, owner.token), 'site spaces').items[0].id;
  ids.siteRedirectId = ok(
    await t.post(`${SITE}/redirects`, owner.token, { source: '/old', destination: { kind: 'url', url: 'https://example.com/' } }),
    'redirect',
  ).id;
  ids.deliveryId = ok(await t.get(`/v1/orgs/${orgId}/webhooks/${ids.webhookId}/deliveries`, owner.token), 'deliveries').items[0].id;
  return ids;
}

beforeAll(async () => {
  t = await TestServer.start();
  const a = await t.org(['review']);
  const b = await t.org(['review']);
  admin = a.admin;
  mine = await fixture(a.admin, a.orgId, a.members[0]!, 'mine-api');
  theirs = await fixture(b.admin, b.orgId, b.members[0]!, 'their-api');
  doc = (await t.get('/v1/openapi.json')).body;
});
afterAll(async () => t?.close());

/**
 * Paths the contracts do not speak of: the API's own description, the desktop sign-in,
 * which is how a person without a token gets one (`auth/desktopAuth.test.ts`), and the git
 * hosts' webhooks (a secret instead of a token).
 */
const NOT_RESOURCES = /^\/v1\/(openapi\.json|reference|auth\/|git\/hooks\/)/;
/** Query parameters an operation cannot do without. */
const REQUIRED_QUERY: Record<string, string> = {
  '/v1/spaces/{spaceId}/search': 'query=welcome',
  '/v1/orgs/{organizationId}/search': 'query=welcome',
  '/v1/orgs/{organizationId}/sites/{siteId}/redirect': 'source=/old',
};

function resolve(schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  return doc.components.schemas[schema.$ref.split('/').pop() as string];
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (NOT_RESOURCES.test(path)) continue;
    for (const [method, op] of Object.entries(ops)) {
      const success = Object.entries(op.responses).find(([s]) => s.startsWith('2'))?.[1];
      const schema = resolve(success?.content?.['application/json']?.schema);
      const list = !!schema?.properties && 'items' in schema.properties && 'count' in schema.properties;
      out.push({ method: method.toUpperCase(), path, list, body: !!op.requestBody });
    }
  }
  return out;
}

/** A path's parameter, as held by a fixture: comments of a change request are their own. */
function idOf(ids: Ids, path: string, name: string): string {
  const onChangeRequest = path.includes('/change-requests/{changeRequestId}/comments');
  if (onChangeRequest && name === 'commentId') return ids.crCommentId as string;
  if (onChangeRequest && name === 'commentReplyId') return ids.crCommentReplyId as string;
  return name === 'emailDomain' ? 'example.com' : (ids[name] as string);
}

/** The path with the fixture's ids, one parameter replaced when asked. */
function fill(op: Pick<Operation, 'path'>, ids: Ids, replace?: [string, string]): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => (replace?.[0] === name ? replace[1] : idOf(ids, op.path, name)));
  const query = REQUIRED_QUERY[op.path];
  return query ? `${path}?${query}` : path;
}

const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;
const params = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
/** An id of the right shape that names nothing, per parameter (slugs are lowercase words). */
const unknownFor = (name: string) => (name === 'specSlug' ? 'no-such-spec' : UNKNOWN_ID);
const reads = () => operations().filter((op) => op.method === 'GET');

/** Every object in an answer, with where it sits. */
function* objects(value: unknown, at = '$'): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) yield* objects(v, `${at}[${i}]`);
  } else if (value && typeof value === 'object') {
    yield [at, value as Record<string, unknown>];
    for (const [k, v] of Object.entries(value)) yield* objects(v, `${at}.${k}`);
  }
}

/** Rich-text documents carry `object` too (`document`, `block`, `text`…): they are content, not resources. */
const CONTENT_NODES = new Set(['document', 'block', 'inline', 'text', 'leaf', 'mark']);

describe('lists', () => {
  it('every list answers {items, count, next?}: limit defaults to 50, caps at 1000, and the cursor walks to a last page without next', async () => {
    const lists = reads().filter((op) => op.list);
    expect(lists.length).toBeGreaterThanOrEqual(35);
    for (const op of lists) {
      const url = fill(op, mine);
      const all = await t.get(url, admin.token);
      expect(all.status, url).toBe(200);
      expect(
        Object.keys(all.body).filter((k) => !['items', 'count', 'next'].includes(k)),
        url,
      ).toEqual(op.path.endsWith('/links') ? ['stats'] : []);
      expect(all.body.count, url).toBeGreaterThanOrEqual(all.body.items.length);
      for (const [limit, message] of [
        ['0', 'must be at least 1'],
        ['1001', 'must be at most 1000'],
        ['ten', 'must be a whole number from 1 to 1000'],
        ['99999999999999999999', 'must be at most 1000'],
      ]) {
        const refused = await t.get(withQuery(url, `limit=${limit}`), admin.token);
        expect(refused.status, `${url} limit=${limit}`).toBe(400);
        expectError(refused, 400, `Invalid query parameter field "limit": ${message}.`);
      }
      expectError(
        await t.get(withQuery(url, 'page=bm9wZQ'), admin.token),
        400,
        'Invalid query parameter field "page": not a cursor from a previous answer.',
      );
      const whole = await t.get(withQuery(url, 'limit=1000'), admin.token);
      expect(whole.body.next, url).toBeUndefined();
      expect(whole.body.items.length, url).toBe(whole.body.count);
      if (whole.body.count > 50) expect(all.body.items.length, url).toBe(50);
      const first = await t.get(withQuery(url, 'limit=1'), admin.token);
      expect(first.body.items.length, url).toBe(Math.min(1, whole.body.count));
      expect(!!first.body.next, `${url}: next with more than one item`).toBe(whole.body.count > 1);
      if (!first.body.next) continue;
      expect(typeof first.body.next.page).toBe('string');
      const second = await t.get(withQuery(url, `limit=${whole.body.count}&page=${encodeURIComponent(first.body.next.page)}`), admin.token);
      expect(second.status, url).toBe(200);
      // The cursor walks on: the rest, with no next after the last item.
      expect([...first.body.items, ...second.body.items], url).toEqual(whole.body.items);
      expect(second.body.next, url).toBeUndefined();
    }
  });
});

describe('resources', () => {
  it('every resource carries object, permissions and urls; ids are URL-safe and 20+ characters; timestamps are ISO 8601 UTC', async () => {
    const missing: string[] = [];
    for (const op of reads()) {
      const res = await t.get(fill(op, mine), admin.token);
      expect(res.status, op.path).toBe(200);
      for (const [at, o] of objects(res.body)) {
        if (typeof o.object === 'string' && !CONTENT_NODES.has(o.object)) {
          for (const key of ['permissions', 'urls']) {
            if (!o[key] || typeof o[key] !== 'object') missing.push(`${op.path} ${at} (${o.object}): no ${key}`);
          }
          if (typeof o.id === 'string') expect(o.id, `${op.path} ${at}`).toMatch(/^[A-Za-z0-9_-]{20,}$/);
          if (o.object === 'change-request') expect(Number.isInteger(o.number), `${op.path} ${at}`).toBe(true);
        }
        for (const [key, v] of Object.entries(o)) {
          if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) {
            expect(v, `${op.path} ${at}.${key}`).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("every resource's urls.location answers a GET with that resource", async () => {
    const located = new Map<string, { object: string; id?: unknown; where: string }>();
    for (const op of reads()) {
      const res = await t.get(fill(op, mine), admin.token);
      for (const [at, o] of objects(res.body)) {
        const location = (o.urls as { location?: unknown } | undefined)?.location;
        if (typeof o.object === 'string' && typeof location === 'string' && !located.has(location)) {
          located.set(location, { object: o.object, id: o.id, where: `${op.path} ${at}` });
        }
      }
    }
    expect(located.size).toBeGreaterThanOrEqual(20);
    for (const [location, { object, id, where }] of located) {
      const url = new URL(location);
      expect(url.origin, where).toBe('http://quire.test');
      const res = await t.get(`${url.pathname}${url.search}`, admin.token);
      expect(res.status, `${location} (${object}, from ${where})`).toBe(200);
      if (!res.body.items) expect(res.body.object, location).toBe(object);
      if (id !== undefined && !res.body.items) expect(res.body.id, location).toBe(id);
    }
  });

  it('two GETs of an unchanged resource answer the same bytes', async () => {
    for (const op of reads()) {
      const url = fill(op, mine);
      const bytes = async () => {
        const res = await t.app.request(`http://quire.test${url}`, { headers: { authorization: `Bearer ${admin.token}` } });
        expect(res.status, url).toBe(200);
        return res.text();
      };
      expect(await bytes(), url).toBe(await bytes());
    }
  });
});

describe('unknown ids', () => {
  it('answer 404 on every read, sub-lists included, and an id of another organization gets the very same answer', async () => {
    for (const op of reads()) {
      for (const name of params(op.path)) {
        if (name === 'emailDomain') continue;
        const unknown = await t.get(fill(op, mine, [name, unknownFor(name)]), admin.token);
        expectError(unknown, 404);
        const foreign = await t.get(fill(op, mine, [name, idOf(theirs, op.path, name)]), admin.token);
        expect({ status: foreign.status, body: foreign.body }, `${op.path} with another organization's ${name}`).toEqual({
          status: unknown.status,
          body: unknown.body,
        });
      }
    }
  });

  it('ids inside a body get the same answer whether unknown or of another organization', async () => {
    const S = `/v1/spaces/${mine.spaceId}`;
    const SITE = `/v1/orgs/${mine.organizationId}/sites/${mine.siteId}`;
    const cases: [method: string, path: string, body: (id: (name: string) => string) => unknown][] = [
      ['POST', `${S}/move`, (id) => ({ parent: id('collectionId') })],
      ['POST', `/v1/orgs/${mine.organizationId}/spaces`, (id) => ({ title: 'Placed', parent: id('collectionId') })],
      ['PUT', `/v1/orgs/${mine.organizationId}/teams/${mine.teamId}/members`, (id) => ({ add: [id('userId')] })],
      ['POST', `${S}/change-requests/${mine.changeRequestId}/requested-reviewers`, (id) => ({ users: [id('userId')] })],
      ['POST', `${SITE}/site-spaces`, (id) => ({ spaceId: id('spaceId') })],
      ['POST', `${SITE}/sections`, (id) => ({ spaceId: id('spaceId') })],
      ['POST', `/v1/orgs/${mine.organizationId}/translations`, (id) => ({ source: { space: id('spaceId') }, language: 'de' })],
      ['POST', `${S}/comments`, (id) => ({ page: id('pageId'), body: { markdown: 'On a page' } })],
    ];
    for (const [method, path, body] of cases) {
      const unknown = await t.request(method, path, { token: admin.token, body: body(() => UNKNOWN_ID) });
      expectError(unknown, 404);
      const foreign = await t.request(method, path, { token: admin.token, body: body((name) => theirs[name] as string) });
      expect({ status: foreign.status, body: foreign.body }, `${method} ${path}`).toEqual({ status: unknown.status, body: unknown.body });
    }
  });
});

describe('DELETE', () => {
  it('answers 204 with no body for an unknown id anywhere in its path and for ids of another organization, deleting nothing', async () => {
    const deletes = operations().filter((op) => op.method === 'DELETE');
    expect(deletes.length).toBeGreaterThanOrEqual(20);
    for (const op of deletes) {
      for (const name of params(op.path)) {
        for (const id of [unknownFor(name), idOf(theirs, op.path, name)]) {
          const res = await t.delete(fill(op, mine, [name, id]), admin.token);
          expect({ status: res.status, body: res.body }, `DELETE ${op.path} with ${name}=${id}`).toEqual({ status: 204, body: undefined });
        }
      }
    }
    // Nothing of either organization went: every read still answers.
    for (const op of reads()) {
      expect((await t.get(fill(op, mine), admin.token)).status, op.path).toBe(200);
    }
    const b = await t.get(`/v1/orgs/${theirs.organizationId}/members?limit=1000`, admin.token);
    expectError(b, 404);
    expect((await t.get(`/v1/spaces/${theirs.spaceId}/comments/${theirs.commentId}`, admin.token)).status).toBe(404);
    expect(
      (
        await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM comments WHERE id = ANY($1)', [[theirs.commentId, mine.commentId]])
      )[0]?.n,
    ).toBe(2);
  });

  it('an unknown route stays a 404 in the error shape, for DELETE too', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      expectError(await t.request(method, '/v1/no-such-thing', { token: admin.token }), 404, 'No matching route found.');
    }
  });
});

/** Where an object schema, at any depth, would take fields it does not name. */
function looseObjects(schema: Schema | undefined, at: string, seen = new Set<Schema>()): string[] {
  const s = resolve(schema);
  if (!s || seen.has(s)) return [];
  seen.add(s);
  const out = s.type === 'object' && s.properties && s.additionalProperties !== false ? [at] : [];
  for (const [k, v] of Object.entries(s.properties ?? {})) out.push(...looseObjects(v, `${at}.${k}`, seen));
  for (const [i, v] of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])].entries())
    out.push(...looseObjects(v, `${at}|${i}`, seen));
  if (s.items) out.push(...looseObjects(s.items, `${at}[]`, seen));
  return out;
}

describe('bad input', () => {
  it('every request body is strict at every level: unknown fields are refused, never stripped', async () => {
    const loose: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const schema = op.requestBody?.content['application/json']?.schema;
        if (schema) loose.push(...looseObjects(schema, `${method.toUpperCase()} ${path} $`));
      }
    }
    expect(loose).toEqual([]);
    // Rich text too, the one place whose nodes stay open.
    const instructions = { object: 'document', nodes: [], extra: true };
    expectError(
      await t.put(`/v1/orgs/${mine.organizationId}/agent-instructions`, admin.token, { instructions }),
      400,
      'Unknown body field: "instructions.extra".',
    );
  });
});

describe('errors', () => {
  it('a bug answers 500 in the error shape, its details logged with the stack and never shown', async () => {
    const logged: unknown[] = [];
    const log = { ...t.deps.log, error: (obj: unknown) => logged.push(obj), info: () => {} } as unknown as typeof t.deps.log;
    const failing = {
      ...t.deps.db,
      query: async () => {
        throw new Error('relation "secret_table" does not exist');
      },
    };
    const app = createApp({ ...t.deps, db: failing as typeof t.deps.db, log });
    // Authentication is the first query: every authenticated request meets the bug.
    const res = await app.request('http://quire.test/v1/user', { headers: { authorization: `Bearer ${admin.token}` } });
    const body = await res.json();
    expectError({ status: res.status, body }, 500, 'Internal error; it has been logged.');
    expect(JSON.stringify(body)).not.toContain('secret_table');
    expect(logged).toHaveLength(1);
    expect(String((logged[0] as { err: Error }).err.stack)).toContain('secret_table');
  });

  it('every operation answers 401 in the error shape without a token, with WWW-Authenticate', async () => {
    for (const op of operations()) {
      const res = await t.request(op.method, fill(op, mine), { body: op.body ? {} : undefined });
      expectError(res, 401, 'A valid API token is required: send Authorization: Bearer <token>.');
      expect(res.headers.get('www-authenticate'), `${op.method} ${op.path}`).toBe('Bearer');
    }
  });

  it('operations that take no body refuse one with fields, changing nothing', async () => {
    const bodiless = operations().filter((op) => op.method === 'POST' && !op.body);
    expect(bodiless.length).toBeGreaterThanOrEqual(9);
    const before = (await t.get(`/v1/orgs/${mine.organizationId}/spaces?limit=1000`, admin.token)).body.count;
    for (const op of bodiless) {
      expectError(
        await t.request('POST', fill(op, mine), { token: admin.token, body: { force: true } }),
        400,
        'Unknown body field: "force".',
      );
      expectError(
        await t.request('POST', fill(op, mine), { token: admin.token, body: ['x'] }),
        400,
        'Invalid body: this operation takes no body.',
      );
    }
    // Duplicate and restore did not run.
    expect((await t.get(`/v1/orgs/${mine.organizationId}/spaces?limit=1000`, admin.token)).body.count).toBe(before);
    // An empty object is no field at all.
    expect((await t.post(`/v1/orgs/${mine.organizationId}/ping`, admin.token, {})).status).toBe(200);
  });
});

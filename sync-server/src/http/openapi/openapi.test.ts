import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError, guardedFetch } from '../../core/security/fetchGuard';
import { processSpec, resumeUnfinishedSpecs } from '../../core/openapi/process';
import { renderSpecOperations } from '../../core/openapi/index';
import { writePages } from '../../testing/testContent';
import { TestServer } from '../../testing/harness';

const PETSTORE = {
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.2.0' },
  servers: [{ url: 'https://pets.example.com/v1' }],
  paths: {
    '/pets/{petId}': {
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' }, description: 'Id of the pet' }],
      get: {
        summary: 'Get a pet',
        description: 'Returns one pet.',
        responses: { 200: { description: 'The pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
    '/pets': {
      post: {
        summary: 'Create a pet',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { 201: { description: 'Created' } },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', description: 'Name | nickname' }, age: { type: 'integer' } },
      },
    },
  },
};

const SWAGGER_YAML = `swagger: "2.0"
info:
  title: Legacy
  version: "0.9"
host: legacy.example.com
basePath: /api
paths:
  /things:
    get:
      summary: List things
      parameters:
        - name: limit
          in: query
          type: integer
      responses:
        "200":
          description: OK
`;

let openGate: () => void = () => {};
const gate = new Promise<void>((resolve) => (openGate = resolve));

let t: TestServer;
let http: Server;
let origin = '';
const files: Record<string, { status?: number; body: string; hang?: boolean }> = {
  '/petstore.json': { body: JSON.stringify(PETSTORE) },
  '/legacy.yaml': { body: SWAGGER_YAML },
  '/broken.yaml': { body: 'openapi: 3.0.0\ninfo: [unclosed\n  - : :' },
  '/not-a-spec.json': { body: JSON.stringify({ hello: 'world' }) },
  '/hang': { body: '', hang: true },
  '/gated.json': { body: JSON.stringify(PETSTORE) },
};

beforeAll(async () => {
  t = await TestServer.start({ allowPrivateFetch: true });
  http = createServer((req, res) => {
    const f = files[req.url ?? ''];
    if (!f) {
      res.writeHead(404).end('not found');
      return;
    }
    if (f.hang) return; // never answers: the fetch times out
    if (req.url === '/gated.json') {
      // Answers once the test opens the gate, so it can watch the spec while it is fetched.
      void gate.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end(f.body));
      return;
    }
    res.writeHead(f.status ?? 200, { 'content-type': 'text/plain' }).end(f.body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  http?.closeAllConnections();
  http?.close();
  await t?.close();
});

/** Polls the spec until its background processing has finished. */
async function settled(orgId: string, slug: string, token: string) {
  for (let i = 0; i < 200; i++) {
    const res = await t.get(`/v1/orgs/${orgId}/openapi/${slug}`, token);
    if (res.body.processingState === 'complete' || res.body.processingState === 'failed') return res.body;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('spec processing did not finish');
}

describe('OpenAPI specifications', () => {
  it('creates a spec from a URL, processes it in the background and lists it', async () => {
    const { orgId, admin } = await t.org();
    const created = await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, {
      slug: 'petstore',
      source: { url: `${origin}/petstore.json` },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'openapi-spec',
      slug: 'petstore',
      sourceURL: `${origin}/petstore.json`,
      visibility: 'private',
      permissions: { view: true, edit: true },
      urls: { location: `http://quire.test/v1/orgs/${orgId}/openapi/petstore` },
    });
    expect(['pending', 'progress', 'complete']).toContain(created.body.processingState);
    const done = await settled(orgId, 'petstore', admin.token);
    expect(done).toMatchObject({ processingState: 'complete' });
    expect(done.lastVersion).toMatch(/^[A-Za-z0-9]{20,}$/);
    expect(Date.parse(done.lastProcessedAt)).not.toBeNaN();
    expect(done.lastProcessErrorCode).toBeUndefined();
    const again = await t.get(`/v1/orgs/${orgId}/openapi/petstore`, admin.token);
    expect(again.body).toEqual(done);

    const list = await t.get(`/v1/orgs/${orgId}/openapi?limit=1`, admin.token);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, items: [{ slug: 'petstore' }] });

    const rendered = await renderSpecOperations(t.db, orgId, 'petstore');
    expect(rendered?.markdown).toContain('## Get a pet');
    expect(rendered?.markdown).toContain('`GET /pets/{petId}`');
    expect(rendered?.markdown).toContain('| `petId` | path | string | yes | Id of the pet |');
    expect(rendered?.markdown).toContain('| `name` | string | yes | Name \\| nickname |');
    expect(rendered?.markdown).toContain('| `200` | The pet | Pet |');
  });

  it('moves from pending through progress to complete while the source is fetched', async () => {
    const { orgId, admin } = await t.org();
    const created = await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'gated', source: { url: `${origin}/gated.json` } });
    expect(['pending', 'progress']).toContain(created.body.processingState);
    let state = created.body.processingState;
    for (let i = 0; i < 200 && state !== 'progress'; i++) {
      await new Promise((r) => setTimeout(r, 10));
      state = (await t.get(`/v1/orgs/${orgId}/openapi/gated`, admin.token)).body.processingState;
    }
    expect(state).toBe('progress');
    const during = (await t.get(`/v1/orgs/${orgId}/openapi/gated`, admin.token)).body;
    expect(during.lastVersion).toBeUndefined();
    expect(during.lastProcessedAt).toBeUndefined();
    openGate();
    expect(await settled(orgId, 'gated', admin.token)).toMatchObject({ processingState: 'complete' });
  });

  it('parses Swagger 2 in YAML given inline, and by URL', async () => {
    const { orgId, admin } = await t.org();
    const inline = await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'legacy-inline', source: { text: SWAGGER_YAML } });
    expect(inline.status).toBe(201);
    expect(inline.body.sourceURL).toBeUndefined();
    expect(await settled(orgId, 'legacy-inline', admin.token)).toMatchObject({ processingState: 'complete' });
    await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'legacy', source: { url: `${origin}/legacy.yaml` } });
    expect(await settled(orgId, 'legacy', admin.token)).toMatchObject({ processingState: 'complete' });
    const md = (await renderSpecOperations(t.db, orgId, 'legacy'))?.markdown;
    expect(md).toContain('## List things');
    expect(md).toContain('Server: `https://legacy.example.com/api`');
    expect(md).toContain('| `limit` | query | integer | no |');
  });

  it('fails with a code and the problems for a broken, an invalid or a missing spec', async () => {
    const { orgId, admin } = await t.org();
    await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'broken', source: { url: `${origin}/broken.yaml` } });
    const broken = await settled(orgId, 'broken', admin.token);
    expect(broken).toMatchObject({ processingState: 'failed', lastProcessErrorCode: 'PARSE_ERROR' });
    expect(broken.lastProcessedErrors[0].message).toMatch(/^Not valid JSON or YAML/);
    expect(broken.lastVersion).toBeUndefined();

    await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'invalid', source: { url: `${origin}/not-a-spec.json` } });
    const invalid = await settled(orgId, 'invalid', admin.token);
    expect(invalid).toMatchObject({ processingState: 'failed', lastProcessErrorCode: 'INVALID_SPEC' });
    expect(invalid.lastProcessedErrors.map((e: { code: string }) => e.code)).toEqual(['MISSING_VERSION', 'MISSING_INFO', 'MISSING_PATHS']);

    await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'gone', source: { url: `${origin}/nothing-here.json` } });
    const gone = await settled(orgId, 'gone', admin.token);
    expect(gone).toMatchObject({ processingState: 'failed', lastProcessErrorCode: 'FETCH_FAILED' });
    expect(gone.lastProcessedErrors[0].message).toBe(`Fetching ${origin}/nothing-here.json answered HTTP 404.`);
  });

  it('puts a new source over a spec (keeping its id), and creates one on put', async () => {
    const { orgId, admin } = await t.org();
    await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'api', source: { url: `${origin}/broken.yaml` } });
    const failed = await settled(orgId, 'api', admin.token);
    const put = await t.put(`/v1/orgs/${orgId}/openapi/api`, admin.token, { source: { url: `${origin}/petstore.json` } });
    expect(put.status).toBe(200);
    expect(put.body.id).toBe(failed.id);
    const done = await settled(orgId, 'api', admin.token);
    expect(done).toMatchObject({ processingState: 'complete', sourceURL: `${origin}/petstore.json` });
    expect(done.lastProcessErrorCode).toBeUndefined();

    const createdByPut = await t.put(`/v1/orgs/${orgId}/openapi/fresh`, admin.token, { source: { text: JSON.stringify(PETSTORE) } });
    expect(createdByPut.status).toBe(200);
    expect(await settled(orgId, 'fresh', admin.token)).toMatchObject({ processingState: 'complete' });
    const badPut = await t.put(`/v1/orgs/${orgId}/openapi/fresh`, admin.token, { source: { url: 'not a url' } });
    expect(badPut.status).toBe(400);
    expect(badPut.body.error.message).toMatch(/^Invalid body field "source.url"/);
  });

  it('refuses bad slugs, bad sources, a taken slug and unknown fields', async () => {
    const { orgId, admin } = await t.org();
    const post = (b: unknown) => t.post(`/v1/orgs/${orgId}/openapi`, admin.token, b);
    const upper = await post({ slug: 'Pets', source: { text: '{}' } });
    expect(upper.status).toBe(400);
    expect(upper.body.error.message).toBe(
      'Invalid body field "slug": must be lowercase letters and digits in words joined by single dashes, such as petstore-v2.',
    );
    expect((await post({ slug: 'a'.repeat(101), source: { text: '{}' } })).body.error.message).toMatch(/^Invalid body field "slug"/);
    const noSource = await post({ slug: 'x' });
    expect(noSource.body.error.message).toBe(
      'Invalid body field "source": is required either {"url": an http(s) URL} or {"text": the spec as JSON or YAML}.',
    );
    const both = await post({ slug: 'x', source: { url: 'https://a.example/x', text: '{}' } });
    expect(both.body.error.message).toBe(
      'Invalid body field "source": must be either {"url": an http(s) URL} or {"text": the spec as JSON or YAML}.',
    );
    const longUrl = await post({ slug: 'x', source: { url: `https://a.example/${'a'.repeat(2048)}` } });
    expect(longUrl.status).toBe(400);
    expect((await post({ slug: 'x', source: { text: '{}' }, color: 1 })).body.error.message).toBe('Unknown body field: "color".');
    expect((await post({ slug: 'taken', source: { text: '{}' } })).status).toBe(201);
    const dup = await post({ slug: 'taken', source: { text: '{}' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe(
      'An OpenAPI specification with the slug "taken" already exists in this organization; PUT it to replace its source.',
    );
    expect((await t.get(`/v1/orgs/${orgId}/openapi/Bad_Slug`, admin.token)).status).toBe(400);
    expect((await t.get(`/v1/orgs/${orgId}/openapi?limit=1001`, admin.token)).status).toBe(400);
  });

  it('patches visibility and serves a public spec without a token', async () => {
    const { orgId, admin } = await t.org();
    await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'pub', source: { text: JSON.stringify(PETSTORE) } });
    await settled(orgId, 'pub', admin.token);
    expect((await t.get(`/public/openapi/${orgId}/pub`)).status).toBe(404);
    const patched = await t.patch(`/v1/orgs/${orgId}/openapi/pub`, admin.token, { visibility: 'public' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ visibility: 'public', urls: { published: `http://quire.test/public/openapi/${orgId}/pub` } });
    const served = await t.get(`/public/openapi/${orgId}/pub`);
    expect(served.status).toBe(200);
    expect(served.body.info.title).toBe('Petstore');
    const bad = await t.patch(`/v1/orgs/${orgId}/openapi/pub`, admin.token, { visibility: 'everyone' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^Invalid body field "visibility"/);
    const empty = await t.patch(`/v1/orgs/${orgId}/openapi/pub`, admin.token, {});
    expect(empty.body.error.message).toBe('Invalid body field "visibility": Invalid option: expected one of "private"|"public".');
    expect((await t.patch(`/v1/orgs/${orgId}/openapi/nope`, admin.token, { visibility: 'public' })).status).toBe(404);
  });

  it('lets readers view but not change specs, and hides them from other organizations', async () => {
    const { orgId, admin, members } = await t.org(['edit', null]);
    const editor = members[0]!;
    const guest = members[1]!;
    await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'held', source: { text: JSON.stringify(PETSTORE) } });
    const view = await t.get(`/v1/orgs/${orgId}/openapi/held`, editor.token);
    expect(view.status).toBe(200);
    expect(view.body.permissions).toEqual({ view: true, edit: false });
    const denied = await t.post(`/v1/orgs/${orgId}/openapi`, editor.token, { slug: 'mine', source: { text: '{}' } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('This needs the create role in the organization.');
    expect((await t.put(`/v1/orgs/${orgId}/openapi/held`, editor.token, { source: { text: '{}' } })).status).toBe(403);
    expect((await t.patch(`/v1/orgs/${orgId}/openapi/held`, editor.token, { visibility: 'public' })).status).toBe(403);
    expect((await t.delete(`/v1/orgs/${orgId}/openapi/held`, editor.token)).status).toBe(403);
    expect((await t.get(`/v1/orgs/${orgId}/openapi`, guest.token)).status).toBe(403);

    const stranger = await t.user();
    const foreign = await t.get(`/v1/orgs/${orgId}/openapi/held`, stranger.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 404, message: 'No matching organization found.' } });
    expect((await t.get(`/v1/orgs/${orgId}/openapi`)).status).toBe(401);
    const source = { source: { text: JSON.stringify(PETSTORE) } };
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/orgs/${orgId}/openapi`],
      ['POST', `/v1/orgs/${orgId}/openapi`, { slug: 'other', ...source }],
      ['GET', `/v1/orgs/${orgId}/openapi/held`],
      ['PUT', `/v1/orgs/${orgId}/openapi/held`, source],
      ['PATCH', `/v1/orgs/${orgId}/openapi/held`, { visibility: 'public' }],
      ['DELETE', `/v1/orgs/${orgId}/openapi/held`],
    ];
    for (const [method, path, body] of calls) {
      expect((await t.request(method, path, { body })).status, `${method} ${path} without a token`).toBe(401);
      // DELETE answers 204 whether or not there was anything the caller could delete.
      const hidden = method === 'DELETE' ? 204 : 404;
      expect((await t.request(method, path, { body, token: stranger.token })).status, `${method} ${path} by a stranger`).toBe(hidden);
    }
    expect((await t.get(`/v1/orgs/${orgId}/openapi/held`, admin.token)).body.visibility).toBe('private');
  });

  it('deletes a spec (204 twice), after which it is gone', async () => {
    const { orgId, admin } = await t.org();
    await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'bye', source: { text: JSON.stringify(PETSTORE) } });
    expect((await t.delete(`/v1/orgs/${orgId}/openapi/bye`, admin.token)).status).toBe(204);
    expect((await t.delete(`/v1/orgs/${orgId}/openapi/bye`, admin.token)).status).toBe(204);
    const gone = await t.get(`/v1/orgs/${orgId}/openapi/bye`, admin.token);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe('No matching OpenAPI specification found.');
  });
});

describe('builtin:openapi pages', () => {
  it("render the spec's operations in a published site, and follow a new version of the spec", async () => {
    const { orgId, admin } = await t.org();
    await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'pets', source: { url: `${origin}/petstore.json` } });
    await settled(orgId, 'pets', admin.token);
    const spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'API' })).body.id as string;
    await writePages(t.db, spaceId, [
      {
        title: 'Reference',
        markdown: 'Stored text that a computed page replaces.\n',
        computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props: {} },
      },
    ]);
    const site = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'API docs', spaces: [spaceId] })).body;
    expect((await t.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`, admin.token)).status).toBe(200);
    const root = `/s/${orgId}/${site.basename}/`;
    const overview = await t.get(root);
    expect(overview.status).toBe(200);
    expect(overview.body).not.toContain('Stored text that a computed page replaces.');
    // The operations are on the pages of their tags, which the overview lists.
    const tagPage = (body: string) => /<a class="content-ref" href="([^"]+)"/.exec(body)?.[1] as string;
    const html = await t.get(tagPage(overview.body));
    expect(html.status).toBe(200);
    expect(html.body).toContain('Get a pet');
    expect(html.body).toContain('<span class="method method-get">GET</span><code>/pets/{petId}</code>');
    expect(html.body).not.toContain('Stored text that a computed page replaces.');

    await t.put(`/v1/orgs/${orgId}/openapi/pets`, admin.token, { source: { url: `${origin}/legacy.yaml` } });
    await settled(orgId, 'pets', admin.token);
    const next = await t.get(tagPage((await t.get(root)).body));
    expect(next.body).toContain('List things');
    expect(next.body).not.toContain('Get a pet');
  });
});

describe('spec fetching', () => {
  it('refuses loopback addresses unless private fetches are allowed', async () => {
    const err = await guardedFetch(`${origin}/petstore.json`, { allowPrivate: false, timeoutMs: 2000, maxBytes: 1e6 }).catch((e) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect(err.failure).toBe('REFUSED');
    const ok = await guardedFetch(`${origin}/petstore.json`, { allowPrivate: true, timeoutMs: 2000, maxBytes: 1e6 });
    expect(ok.status).toBe(200);
    const big = await guardedFetch(`${origin}/petstore.json`, { allowPrivate: true, timeoutMs: 2000, maxBytes: 10 }).catch((e) => e);
    expect(big.failure).toBe('TOO_LARGE');
  });

  it('resumes processing that a stopped process left unfinished', async () => {
    const { orgId, admin } = await t.org();
    await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'resumed', source: { text: SWAGGER_YAML } });
    await settled(orgId, 'resumed', admin.token);
    // As a crash mid-processing leaves it: in progress, with no run under way.
    await t.db.query("UPDATE openapi_specs SET processing_state = 'progress', last_version_id = NULL WHERE org_id = $1", [orgId]);
    expect((await t.get(`/v1/orgs/${orgId}/openapi/resumed`, admin.token)).body.processingState).toBe('progress');
    expect(await resumeUnfinishedSpecs(t.deps)).toBeGreaterThanOrEqual(1);
    const done = await settled(orgId, 'resumed', admin.token);
    expect(done.processingState).toBe('complete');
    expect(done.lastVersion).toMatch(/^[A-Za-z0-9]{20,}$/);
  });

  it('fails a spec whose URL does not answer in time with FETCH_TIMEOUT', async () => {
    const { orgId, admin } = await t.org();
    // Created through the API (its own run times out after 30 s, long after this test), then processed with a short limit.
    await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'slow', source: { url: `${origin}/hang` } });
    const id = (await t.get(`/v1/orgs/${orgId}/openapi/slow`, admin.token)).body.id;
    await t.db.query("UPDATE openapi_specs SET processing_state = 'pending', generation = generation + 1 WHERE id = $1", [id]);
    await processSpec(t.deps, id, { timeoutMs: 150, maxBytes: 1e6 });
    const res = await t.get(`/v1/orgs/${orgId}/openapi/slow`, admin.token);
    expect(res.body).toMatchObject({ processingState: 'failed', lastProcessErrorCode: 'FETCH_TIMEOUT' });
  });
});

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer } from '../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

/** Paths that are part of the API surface but not operations of it. */
const NOT_OPERATIONS = new Set(['/v1/openapi.json', '/v1/reference', '/v1/*']);
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1, served without a token, with component schemas and bearer auth', async () => {
    const res = await t.get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    for (const name of [
      'Organization',
      'Space',
      'Collection',
      'Member',
      'Team',
      'User',
      'Error',
      'Role',
      'MergeRules',
      'AgentInstructions',
    ]) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
  });

  it('documents every route the app registers under /v1, and nothing it does not', async () => {
    const doc = (await t.get('/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths))
      for (const m of Object.keys(ops)) if (METHODS.has(m)) documented.add(`${m.toUpperCase()} ${path}`);
    const registered = new Set<string>();
    for (const r of t.app.routes) {
      const method = r.method.toLowerCase();
      if (!METHODS.has(method) || !r.path.startsWith('/v1/') || NOT_OPERATIONS.has(r.path) || r.path.startsWith('/v1/reference')) continue;
      registered.add(`${r.method} ${r.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')}`);
    }
    // Far more than this operations: every resource family registers here.
    expect(registered.size).toBeGreaterThanOrEqual(45);
    expect([...registered].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((d) => !registered.has(d))).toEqual([]);
  });

  it('documents each operation of the organization API with its error answers and auth', async () => {
    const doc = (await t.get('/v1/openapi.json')).body;
    const ops: [string, string][] = [
      ['get', '/v1/user'],
      ['get', '/v1/orgs'],
      ['post', '/v1/orgs'],
      ['get', '/v1/orgs/{organizationId}'],
      ['patch', '/v1/orgs/{organizationId}'],
      ['delete', '/v1/orgs/{organizationId}/link-invites/{inviteId}'],
      ['post', '/v1/orgs/{organizationId}/join'],
      ['post', '/v1/orgs/{organizationId}/invites'],
      ['get', '/v1/orgs/{organizationId}/agent-instructions'],
      ['put', '/v1/orgs/{organizationId}/agent-instructions'],
      ['get', '/v1/email-domains/{emailDomain}/orgs'],
      ['post', '/v1/orgs/{organizationId}/ping'],
      ['get', '/v1/orgs/{organizationId}/spaces'],
      ['post', '/v1/orgs/{organizationId}/spaces'],
      ['get', '/v1/orgs/{organizationId}/collections'],
      ['post', '/v1/orgs/{organizationId}/collections'],
      ['get', '/v1/orgs/{organizationId}/members'],
      ['get', '/v1/orgs/{organizationId}/members/{userId}'],
      ['delete', '/v1/orgs/{organizationId}/members/{userId}'],
      ['patch', '/v1/orgs/{organizationId}/members/{userId}'],
      ['post', '/v1/orgs/{organizationId}/members/{userId}/sso'],
      ['get', '/v1/orgs/{organizationId}/members/{userId}/spaces'],
      ['get', '/v1/orgs/{organizationId}/members/{userId}/teams'],
      ['get', '/v1/orgs/{organizationId}/teams'],
      ['put', '/v1/orgs/{organizationId}/teams'],
      ['get', '/v1/orgs/{organizationId}/teams/{teamId}'],
      ['delete', '/v1/orgs/{organizationId}/teams/{teamId}'],
      ['patch', '/v1/orgs/{organizationId}/teams/{teamId}'],
      ['get', '/v1/orgs/{organizationId}/teams/{teamId}/members'],
      ['put', '/v1/orgs/{organizationId}/teams/{teamId}/members'],
      ['put', '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}'],
      ['delete', '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}'],
      ['get', '/v1/collections/{collectionId}'],
      ['delete', '/v1/collections/{collectionId}'],
      ['patch', '/v1/collections/{collectionId}'],
      ['get', '/v1/collections/{collectionId}/spaces'],
      ['post', '/v1/collections/{collectionId}/move'],
      ['post', '/v1/collections/{collectionId}/transfer'],
      ['get', '/v1/spaces/{spaceId}'],
      ['delete', '/v1/spaces/{spaceId}'],
      ['patch', '/v1/spaces/{spaceId}'],
      ['post', '/v1/spaces/{spaceId}/duplicate'],
      ['post', '/v1/spaces/{spaceId}/restore'],
      ['post', '/v1/spaces/{spaceId}/move'],
      ['post', '/v1/spaces/{spaceId}/transfer'],
    ];
    for (const [method, path] of ops) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.security).toEqual([{ bearer: [] }]);
      for (const status of ['400', '401', '403', '404', '429']) {
        expect(op.responses[status].content['application/json'].schema, `${method} ${path} ${status}`).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
      const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect(success, `${method} ${path}`).toHaveLength(1);
    }
    // Lists carry the envelope with their limits.
    const limit = doc.paths['/v1/orgs/{organizationId}/members'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 1000 });
  });

  it("has every operation of the specification, with its success status and the public client's query names", async () => {
    const doc = (await t.get('/v1/openapi.json')).body;
    const operations = specificationOperations();
    expect(operations).toHaveLength(142);
    const wrong: string[] = [];
    for (const op of operations) {
      const documented = doc.paths[op.path]?.[op.method.toLowerCase()];
      if (!documented) {
        wrong.push(`#${op.number} ${op.method} ${op.path}: missing`);
        continue;
      }
      const success = Object.keys(documented.responses).filter((s) => s.startsWith('2'));
      if (success.join() !== op.success)
        wrong.push(`#${op.number} ${op.method} ${op.path}: answers ${success.join()}, the specification says ${op.success}`);
      const names = new Set(
        (documented.parameters ?? []).filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name),
      );
      for (const q of op.query) if (!names.has(q)) wrong.push(`#${op.number} ${op.method} ${op.path}: no query parameter "${q}"`);
    }
    expect(wrong).toEqual([]);
  });

  it('serves a readable reference page', async () => {
    const res = await t.request('GET', '/v1/reference');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(String(res.body)).toMatch(/<html/i);
    expect(String(res.body)).toContain('/v1/openapi.json');
  });
});

interface SpecOperation {
  number: number;
  method: string;
  path: string;
  success: string;
  query: string[];
}

/** The rows of the specification's operations table (a copy kept beside this test). */
function specificationOperations(): SpecOperation[] {
  const table = readFileSync(new URL('./fixtures/operations.md', import.meta.url), 'utf8');
  const rows: SpecOperation[] = [];
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (!/^\d+$/.test(cells[1] ?? '')) continue;
    const [, number, , method, path, success, query] = cells as string[];
    rows.push({
      number: Number(number),
      method: method as string,
      path: (path as string).replaceAll('`', ''),
      // "success without body" and "success, no content" are 204s.
      success: /^\d{3}/.exec(success as string)?.[0] ?? '204',
      query: (query as string)
        .split(',')
        .map((q) => q.replace(/\(.*\)/, '').trim())
        .filter((q) => q && q !== '-'),
    });
  }
  return rows;
}

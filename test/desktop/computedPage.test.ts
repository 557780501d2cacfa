import { listPages } from '@quire/shared/content/pages';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalNode } from '../../desktop/src/local/LocalNode';
import { MemoryCredentialStore } from '../../desktop/src/local/credentials';
import { type QuireTestServer, eventually, startQuireServer } from './helpers/server';

let s: QuireTestServer;
beforeAll(async () => {
  s = await startQuireServer();
});
afterAll(async () => s?.close());

const SPEC = {
  openapi: '3.0.0',
  info: { title: 'Pets', version: '1' },
  paths: { '/pets': { get: { summary: 'List pets', responses: { 200: { description: 'The pets' } } } } },
};

it("shows a builtin:openapi page as its spec's operations, rendered by the server", async () => {
  const t = s.live.t;
  expect((await t.post(`/v1/orgs/${s.orgId}/openapi`, s.token, { slug: 'pets', source: { text: JSON.stringify(SPEC) } })).status).toBe(201);
  await eventually(
    async () => (await t.get(`/v1/orgs/${s.orgId}/openapi/pets`, s.token)).body.processingState === 'complete',
    'spec processed',
  );
  const space = (await t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'API' })).body;
  const applied = await t.post(`/v1/spaces/${space.id}/content/template`, s.token, {
    id: 'api-reference',
    params: { contentRefs: { spec: { kind: 'openapi', spec: 'pets' } } },
  });
  expect(applied.status).toBe(204);

  const node = await LocalNode.open({ credentials: new MemoryCredentialStore() });
  try {
    await node.session.connect(s.url, s.token);
    const local = (await node.catalog.refresh()).organizations[0]?.spaces.find((x) => x.title === 'API');
    expect(local).toBeDefined();
    const ref = { spaceId: local!.id };
    const branch = await node.branches.acquire(ref);
    await eventually(() => listPages(branch.doc).length === 1, 'the page synced');
    const page = listPages(branch.doc)[0]!;
    expect(page.computed).toMatchObject({ type: 'builtin:openapi' });

    const shown = await node.branches.computedPage(ref, page.id);
    expect(shown.reason).toBeNull();
    const text = JSON.stringify(shown.document);
    expect(text).toContain('List pets');
    expect(text).toContain('GET /pets');
    expect(text).not.toContain('generated from its OpenAPI specification');

    await node.session.setWorkOffline(true);
    const offline = await node.branches.computedPage(ref, page.id);
    expect(offline).toEqual({ document: null, reason: 'This page is computed by the server: connect to see what it shows.' });
  } finally {
    await node.close();
  }
});

import { createPage, listPages } from '@quire/shared/content/pages';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalNode } from '../../desktop/src/local/LocalNode';
import { MemoryCredentialStore } from '../../desktop/src/local/credentials';
import { type QuireTestServer, eventually, startQuireServer } from './helpers/server';

let s: QuireTestServer;
beforeAll(async () => {
  s = await startQuireServer();
});
afterAll(async () => s?.close());

it('publishes a space and a second node sees its pages', async () => {
  const a = await LocalNode.open({ credentials: new MemoryCredentialStore() });
  const b = await LocalNode.open({ credentials: new MemoryCredentialStore() });
  await a.session.connect(s.url, s.token);
  await b.session.connect(s.url, s.token);
  const space = await a.catalog.createSpace({ title: 'Handbook', organizationId: s.orgId });
  const main = await a.branches.acquire({ spaceId: space.id });
  createPage(main.doc, { title: 'Second' });
  await a.outbox.idle();
  await eventually(async () => (await a.catalog.get()).organizations[0]?.spaces.some((x) => x.syncState === 'remote') ?? false, 'publish');
  await eventually(async () => (await a.session.status()).pending === 0, 'all sent');
  const cat = await b.catalog.refresh();
  const remote = cat.organizations[0]?.spaces[0];
  expect(remote?.title).toBe('Handbook');
  const other = await b.branches.acquire({ spaceId: remote!.id });
  await eventually(() => listPages(other.doc).length === 2, 'pages on b');
  expect(
    listPages(other.doc)
      .map((p) => p.title)
      .sort(),
  ).toEqual(['Getting started', 'Second']);
  await a.close();
  await b.close();
});

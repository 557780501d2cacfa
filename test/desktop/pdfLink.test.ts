import { createPage } from '@quire/shared/content/pages';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalNode } from '../../desktop/src/local/LocalNode';
import { MemoryCredentialStore } from '../../desktop/src/local/credentials';
import { type QuireTestServer, startQuireServer } from './helpers/server';

let s: QuireTestServer;
beforeAll(async () => {
  s = await startQuireServer();
});
afterAll(async () => s?.close());

it('gives the app a link to the space PDF made by the server, and the reason when it cannot', async () => {
  const node = await LocalNode.open({ credentials: new MemoryCredentialStore() });
  try {
    const local = await node.catalog.createSpace({ title: 'Only here' });
    expect(await node.branches.pdfLink({ spaceId: local.id })).toEqual({
      url: null,
      reason: 'PDFs are made by the server: publish the space first.',
    });

    const space = (await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Shared' })).body;
    await node.session.connect(s.url, s.token);
    const synced = (await node.catalog.refresh()).organizations[0]?.spaces.find((x) => x.title === 'Shared');
    expect(synced).toBeDefined();
    const branch = await node.branches.acquire({ spaceId: synced!.id });
    createPage(branch.doc, { title: 'Hello', markdown: 'Body text.' });
    const link = await node.branches.pdfLink({ spaceId: synced!.id });
    expect(link.reason).toBeNull();
    expect(link.url).toMatch(new RegExp(`/exports/spaces/${space.id}/revisions/.+\\.pdf\\?.*sig=`));

    await node.session.setWorkOffline(true);
    expect(await node.branches.pdfLink({ spaceId: synced!.id })).toEqual({
      url: null,
      reason: 'PDFs are made by the server: connect to one first.',
    });
  } finally {
    await node.close();
  }
});

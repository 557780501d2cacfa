import { setPageDocument } from '@quire/shared/content/body';
import { createPage } from '@quire/shared/content/pages';
import { createReusableContent } from '@quire/shared/content/reusableContents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editBranch } from '../core/content/revisions';
import { TestServer } from '../testing/harness';

/** Includes of reusable content on published pages: readers see what is included, in place. */
let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => {
  await t?.close();
});

describe('reusable content on a published page', () => {
  it('shows the included blocks where the include stands, with the page around them', async () => {
    const { orgId, admin } = await t.org();
    const spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Docs' })).body.id as string;
    await t.db.transaction((tx) =>
      editBranch(tx, { spaceId }, (doc) => {
        const reusable = createReusableContent(doc, { title: 'Support', markdown: 'Write to **support@acme.test** any time.\n' });
        const page = createPage(doc, { title: 'Help' });
        const p = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
        setPageDocument(doc, page, {
          type: 'doc',
          content: [p('Before.'), { type: 'reusableContent', attrs: { reusableContentId: reusable, src: null } }, p('After.')],
        });
      }),
    );
    const site = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Docs', spaces: [spaceId] })).body;
    await t.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`, admin.token);
    const res = await t.app.fetch(new Request(`http://quire.test/s/${orgId}/${site.basename}/`));
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toMatch(/<p>Before\.<\/p><p>Write to <strong>support@acme\.test<\/strong> any time\.<\/p><p>After\.<\/p>/);
  });
});

import { createPage, deletePage, getPage, setPageMarkdown } from '@quire/shared/content/index';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Branch, branchDocId } from '../../core/content/branches';
import { commitToBranch } from '../../core/content/revisions';
import { loadYDoc } from '../../store/ydocs';
import { TestServer, type TestUser } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

/** Edits a branch as an editor would: through its update log, then a revision is cut. */
async function edit(branch: Branch, change: (doc: Y.Doc) => void) {
  await t.db.transaction(async (tx) => {
    const { doc } = await loadYDoc(tx, branchDocId(branch));
    const before = Y.encodeStateVector(doc);
    change(doc);
    await commitToBranch(tx, branch, Y.encodeStateAsUpdate(doc, before));
  });
}

interface Fixture {
  orgId: string;
  spaceId: string;
  pageId: string;
  admin: TestUser;
  commenter: TestUser;
  other: TestUser;
  reader: TestUser;
}

async function fixture(): Promise<Fixture> {
  const { orgId, admin, members } = await t.org(['comment', 'comment', 'read']);
  const space = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Docs' });
  expect(space.status).toBe(201);
  let pageId = '';
  await edit({ spaceId: space.body.id }, (doc) => {
    const parent = createPage(doc, { title: 'Guides', type: 'group' });
    pageId = createPage(doc, {
      title: 'Getting started',
      emoji: '🚀',
      parent,
      markdown: '# Install\n\nRun the installer.\n\n## Configure\n\nSet the port.\n',
    });
  });
  return { orgId, spaceId: space.body.id, pageId, admin, commenter: members[0]!, other: members[1]!, reader: members[2]! };
}

describe('space comments', () => {
  it('posts a comment on a page node, with target page details, and counts it on the space', async () => {
    const f = await fixture();
    const res = await t.post(`/v1/spaces/${f.spaceId}/comments`, f.commenter.token, {
      page: f.pageId,
      node: 'configure',
      body: { markdown: 'Which **port**?' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'comment',
      postedBy: { id: f.commenter.id },
      replies: 0,
      reactions: [],
      status: 'open',
      body: { markdown: 'Which **port**?' },
      target: {
        space: f.spaceId,
        node: { id: 'configure', preview: 'Configure' },
        page: { id: f.pageId, title: 'Getting started', emoji: '🚀', path: 'guides/getting-started', outdated: false },
      },
      permissions: { view: true, edit: true, reply: true, delete: true },
      urls: { location: `http://quire.test/v1/spaces/${f.spaceId}/comments/${res.body.id}` },
    });
    expect(res.body.target.revision).toMatch(/^[A-Za-z0-9]{20,}$/);
    expect(Date.parse(res.body.target.page.updatedAt)).not.toBeNaN();
    expect(res.body.editedAt).toBeUndefined();
    expect((await t.get(`/v1/spaces/${f.spaceId}`, f.admin.token)).body.comments).toBe(1);

    const again = await t.get(`/v1/spaces/${f.spaceId}/comments/${res.body.id}`, f.reader.token);
    expect(again.status).toBe(200);
    expect({ ...again.body, permissions: undefined }).toEqual({ ...res.body, permissions: undefined });
    expect(again.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    const doc = await t.get(`/v1/spaces/${f.spaceId}/comments/${res.body.id}?format=document`, f.reader.token);
    expect(doc.body.body.document).toMatchObject({ object: 'document', nodes: [{ object: 'block', type: 'paragraph' }] });
  });

  it('marks the target outdated once its node is edited away, and when the page is deleted', async () => {
    const f = await fixture();
    const onNode = await t.post(`/v1/spaces/${f.spaceId}/comments`, f.commenter.token, {
      page: f.pageId,
      node: 'configure',
      body: { markdown: 'a' },
    });
    const onPage = await t.post(`/v1/spaces/${f.spaceId}/comments`, f.commenter.token, { page: f.pageId, body: { markdown: 'b' } });
    await edit({ spaceId: f.spaceId }, (doc) => {
      setPageMarkdown(doc, f.pageId, '# Install\n\nRun the installer.\n');
    });
    const node = await t.get(`/v1/spaces/${f.spaceId}/comments/${onNode.body.id}`, f.commenter.token);
    expect(node.body.target.page.outdated).toBe(true);
    expect(node.body.target.node).toEqual({ id: 'configure', preview: 'Configure' });
    expect((await t.get(`/v1/spaces/${f.spaceId}/comments/${onPage.body.id}`, f.commenter.token)).body.target.page.outdated).toBe(false);
    await edit({ spaceId: f.spaceId }, (doc) => {
      expect(getPage(doc, f.pageId)).not.toBeNull();
      deletePage(doc, f.pageId);
    });
    const gone = await t.get(`/v1/spaces/${f.spaceId}/comments/${onPage.body.id}`, f.commenter.token);
    expect(gone.body.target.page).toEqual({ id: f.pageId, outdated: true });
  });

  it('refuses bad bodies, unknown pages and readers', async () => {
    const f = await fixture();
    const post = (token: string, b: unknown) => t.post(`/v1/spaces/${f.spaceId}/comments`, token, b);
    const noBody = await post(f.commenter.token, { page: f.pageId });
    expect(noBody.status).toBe(400);
    expect(noBody.body.error.message).toBe(
      'Invalid body field "body": is required either {"markdown": text} or {"document": a body document}.',
    );
    const blank = await post(f.commenter.token, { body: { markdown: '   ' } });
    expect(blank.body.error.message).toBe('Invalid body field "body.markdown": must not be blank.');
    expect((await post(f.commenter.token, { body: { markdown: 'x' }, color: 'red' })).body.error.message).toBe(
      'Unknown body field: "color".',
    );
    const nodeOnly = await post(f.commenter.token, { node: 'configure', body: { markdown: 'x' } });
    expect(nodeOnly.body.error.message).toBe('Invalid body field "node": a node is targeted within a page, so "page" is needed too.');
    const unknownPage = await post(f.commenter.token, { page: 'AAAAAAAAAAAAAAAAAAAAAA', body: { markdown: 'x' } });
    expect(unknownPage.status).toBe(404);
    expect(unknownPage.body.error.message).toBe('No matching page found.');
    const reader = await post(f.reader.token, { body: { markdown: 'x' } });
    expect(reader.status).toBe(403);
    expect(reader.body.error.message).toBe('This needs the comment role on the space to comment.');
    const stranger = await t.user();
    const hidden = await post(stranger.token, { body: { markdown: 'x' } });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe('No matching space found.');
    expect((await t.get(`/v1/spaces/${f.spaceId}/comments`, f.reader.token)).body.count).toBe(0);
  });

  it('accepts a document body and keeps it as markdown', async () => {
    const f = await fixture();
    const res = await t.post(`/v1/spaces/${f.spaceId}/comments`, f.commenter.token, {
      body: {
        document: {
          type: 'doc',
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: 'Looks ', marks: [] },
                { type: 'text', text: 'good', marks: [{ type: 'bold' }] },
              ],
            },
          ],
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.body).toEqual({ markdown: 'Looks **good**' });
    expect(res.body.target.page).toBeUndefined();
  });

  it('lets only the author edit the body; anyone who comments resolves, reopens and reacts', async () => {
    const f = await fixture();
    const { body: comment } = await t.post(`/v1/spaces/${f.spaceId}/comments`, f.commenter.token, { body: { markdown: 'first' } });
    const url = `/v1/spaces/${f.spaceId}/comments/${comment.id}`;
    const notAuthor = await t.put(url, f.other.token, { body: { markdown: 'hijacked' } });
    expect(notAuthor.status).toBe(403);
    expect(notAuthor.body.error.message).toBe("Only the comment's author can edit its body.");
    expect((await t.put(url, f.admin.token, { body: { markdown: 'admin too' } })).status).toBe(403);
    expect((await t.put(url, f.reader.token, { resolved: true })).status).toBe(403);
    expect((await t.get(url, f.commenter.token)).body.body.markdown).toBe('first');

    const edited = await t.put(url, f.commenter.token, { body: { markdown: 'second' }, addedReactions: ['👍', '🎉'] });
    expect(edited.status).toBe(200);
    expect(edited.body.body.markdown).toBe('second');
    expect(Date.parse(edited.body.editedAt)).not.toBeNaN();
    await t.put(url, f.other.token, { addedReactions: ['👍'] });
    await t.put(url, f.other.token, { addedReactions: ['👍'] }); // once per user
    const resolved = await t.put(url, f.other.token, { resolved: true, removedReactions: ['🎉'] });
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedBy: { id: f.other.id } });
    expect(Date.parse(resolved.body.resolvedAt)).not.toBeNaN();
    expect(resolved.body.reactions).toHaveLength(2);
    const thumbs = resolved.body.reactions.find((r: { emoji: string }) => r.emoji === '👍');
    expect(thumbs.count).toBe(2);
    expect(thumbs.users.map((u: { user: { id: string } }) => u.user.id)).toEqual([f.commenter.id, f.other.id]);
    expect(Date.parse(thumbs.users[0].reactedAt)).not.toBeNaN();
    expect((await t.get(`/v1/spaces/${f.spaceId}`, f.admin.token)).body.comments).toBe(0);

    const reopened = await t.put(url, f.commenter.token, { resolved: false, removedReactions: ['🎉'] });
    expect(reopened.body.status).toBe('open');
    expect(reopened.body.resolvedAt).toBeUndefined();
    expect(reopened.body.reactions.map((r: { emoji: string }) => r.emoji)).toEqual(['👍']);

    const both = await t.put(url, f.commenter.token, { addedReactions: ['👍'], removedReactions: ['👍'] });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toBe('Invalid body field "removedReactions": "👍" is also in "addedReactions".');
    expect((await t.put(url, f.commenter.token, {})).status).toBe(400);
    expect((await t.put(`/v1/spaces/${f.spaceId}/comments/AAAAAAAAAAAAAAAAAAAAAA`, f.commenter.token, { resolved: true })).status).toBe(
      404,
    );
  });

  it('filters by status, page and authors (repeated or comma-separated), orders and pages', async () => {
    const f = await fixture();
    const post = (token: string, b: Record<string, unknown>) =>
      t.post(`/v1/spaces/${f.spaceId}/comments`, token, { body: { markdown: 'x' }, ...b });
    const a = (await post(f.commenter.token, { page: f.pageId })).body;
    const b = (await post(f.other.token, {})).body;
    const c = (await post(f.admin.token, { page: f.pageId })).body;
    await t.put(`/v1/spaces/${f.spaceId}/comments/${b.id}`, f.commenter.token, { resolved: true });
    const ids = async (q: string) => {
      const res = await t.get(`/v1/spaces/${f.spaceId}/comments${q}`, f.reader.token);
      expect(res.status).toBe(200);
      return res.body.items.map((x: { id: string }) => x.id);
    };
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?order=asc')).toEqual([a.id, b.id, c.id]);
    expect(await ids('?status=resolved')).toEqual([b.id]);
    expect(await ids('?status=open')).toEqual([c.id, a.id]);
    expect(await ids(`?targetPage=${f.pageId}`)).toEqual([c.id, a.id]);
    expect(await ids(`?authors=${f.commenter.id}&authors=${f.other.id}`)).toEqual([b.id, a.id]);
    expect(await ids(`?authors=${f.commenter.id},${f.admin.id}`)).toEqual([c.id, a.id]);
    const first = await t.get(`/v1/spaces/${f.spaceId}/comments?limit=2`, f.reader.token);
    expect(first.body.count).toBe(3);
    const second = await t.get(`/v1/spaces/${f.spaceId}/comments?limit=2&page=${first.body.next.page}`, f.reader.token);
    expect([...first.body.items, ...second.body.items].map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(second.body.next).toBeUndefined();
    const bad = await t.get(`/v1/spaces/${f.spaceId}/comments?status=closed`, f.reader.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^Invalid query parameter field "status"/);
    expect((await t.get(`/v1/spaces/${f.spaceId}/comments?limit=1001`, f.reader.token)).status).toBe(400);
    expect((await t.get(`/v1/spaces/${f.spaceId}/comments?authors=not%20an%20id`, f.reader.token)).status).toBe(400);
  });

  it('threads replies: post, get, update, react, list and delete', async () => {
    const f = await fixture();
    const { body: comment } = await t.post(`/v1/spaces/${f.spaceId}/comments`, f.commenter.token, { body: { markdown: 'q' } });
    const base = `/v1/spaces/${f.spaceId}/comments/${comment.id}/replies`;
    const reply = await t.post(base, f.other.token, { body: { markdown: 'an _answer_' } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      object: 'comment-reply',
      postedBy: { id: f.other.id },
      body: { markdown: 'an _answer_' },
      reactions: [],
      permissions: { edit: true, delete: true },
      urls: { location: `http://quire.test${base}/${reply.body.id}` },
    });
    expect((await t.get(`/v1/spaces/${f.spaceId}/comments/${comment.id}`, f.reader.token)).body.replies).toBe(1);
    expect((await t.get(`${base}/${reply.body.id}?format=document`, f.reader.token)).body.body.document.object).toBe('document');
    expect((await t.post(base, f.reader.token, { body: { markdown: 'x' } })).status).toBe(403);
    expect((await t.post(base, f.other.token, {})).status).toBe(400);
    expect((await t.put(`${base}/${reply.body.id}`, f.commenter.token, { body: { markdown: 'not mine' } })).status).toBe(403);
    const updated = await t.put(`${base}/${reply.body.id}`, f.other.token, { body: { markdown: 'better' } });
    expect(updated.body.body.markdown).toBe('better');
    const reacted = await t.put(`${base}/${reply.body.id}`, f.commenter.token, { addedReactions: ['❤️'] });
    expect(reacted.body.reactions).toMatchObject([{ emoji: '❤️', count: 1, users: [{ user: { id: f.commenter.id } }] }]);
    expect((await t.get(`${base}/AAAAAAAAAAAAAAAAAAAAAA`, f.reader.token)).body.error.message).toBe('No matching comment reply found.');
    const list = await t.get(base, f.reader.token);
    expect(list.body).toMatchObject({ count: 1, items: [{ id: reply.body.id }] });
    expect((await t.delete(`${base}/${reply.body.id}`, f.commenter.token)).status).toBe(403);
    expect((await t.delete(`${base}/${reply.body.id}`, f.other.token)).status).toBe(204);
    expect((await t.delete(`${base}/${reply.body.id}`, f.other.token)).status).toBe(204);
    expect((await t.get(`${base}/${reply.body.id}`, f.reader.token)).status).toBe(404);
  });

  it('lets the author or an admin delete a comment, nobody else', async () => {
    const f = await fixture();
    const mk = async () =>
      (await t.post(`/v1/spaces/${f.spaceId}/comments`, f.commenter.token, { body: { markdown: 'x' } })).body.id as string;
    const one = await mk();
    const denied = await t.delete(`/v1/spaces/${f.spaceId}/comments/${one}`, f.other.token);
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('Only the author of a comment or an admin can delete it.');
    expect((await t.delete(`/v1/spaces/${f.spaceId}/comments/${one}`, f.commenter.token)).status).toBe(204);
    const two = await mk();
    await t.post(`/v1/spaces/${f.spaceId}/comments/${two}/replies`, f.other.token, { body: { markdown: 'r' } });
    expect((await t.delete(`/v1/spaces/${f.spaceId}/comments/${two}`, f.admin.token)).status).toBe(204);
    expect((await t.delete(`/v1/spaces/${f.spaceId}/comments/${two}`, f.admin.token)).status).toBe(204);
    expect((await t.get(`/v1/spaces/${f.spaceId}/comments/${two}`, f.admin.token)).status).toBe(404);
    expect((await t.get(`/v1/spaces/${f.spaceId}/comments`, f.admin.token)).body.count).toBe(0);
  });
  it('answers 401 without a token, 404 to strangers and 403 to readers, on every operation', async () => {
    const f = await fixture();
    const { body: comment } = await t.post(`/v1/spaces/${f.spaceId}/comments`, f.commenter.token, { body: { markdown: 'c' } });
    const { body: reply } = await t.post(`/v1/spaces/${f.spaceId}/comments/${comment.id}/replies`, f.commenter.token, {
      body: { markdown: 'r' },
    });
    const base = `/v1/spaces/${f.spaceId}/comments`;
    const text = { body: { markdown: 'x' } };
    const reads: [string, string][] = [
      ['GET', base],
      ['GET', `${base}/${comment.id}`],
      ['GET', `${base}/${comment.id}/replies`],
      ['GET', `${base}/${comment.id}/replies/${reply.id}`],
    ];
    const writes: [string, string, unknown?][] = [
      ['POST', base, text],
      ['PUT', `${base}/${comment.id}`, { resolved: true }],
      ['DELETE', `${base}/${comment.id}`],
      ['POST', `${base}/${comment.id}/replies`, text],
      ['PUT', `${base}/${comment.id}/replies/${reply.id}`, { addedReactions: ['👀'] }],
      ['DELETE', `${base}/${comment.id}/replies/${reply.id}`],
    ];
    const stranger = await t.user();
    for (const [method, path, body] of [...reads, ...writes]) {
      const anonymous = await t.request(method, path, { body });
      expect(anonymous.status, `${method} ${path} without a token`).toBe(401);
      expect(anonymous.body.error.code).toBe(401);
      const foreign = await t.request(method, path, { body, token: stranger.token });
      // DELETE answers 204 whether or not there was anything the caller could delete.
      if (method === 'DELETE') {
        expect(foreign.status, `${method} ${path} by a stranger`).toBe(204);
        continue;
      }
      expect(foreign.status, `${method} ${path} by a stranger`).toBe(404);
      expect(foreign.body.error.message).toBe('No matching space found.');
    }
    for (const [method, path] of reads)
      expect((await t.request(method, path, { token: f.reader.token })).status, `${method} ${path}`).toBe(200);
    for (const [method, path, body] of writes) {
      expect((await t.request(method, path, { body, token: f.reader.token })).status, `${method} ${path} by a reader`).toBe(403);
    }
    // Nothing a refused caller sent changed the thread.
    const after = await t.get(`${base}/${comment.id}`, f.commenter.token);
    expect(after.body).toMatchObject({ status: 'open', replies: 1, reactions: [] });
    expect((await t.get(`${base}?limit=1000`, f.reader.token)).body.count).toBe(1);
  });

  it('targets a table cell of a page', async () => {
    const f = await fixture();
    const res = await t.post(`/v1/spaces/${f.spaceId}/comments`, f.commenter.token, {
      page: f.pageId,
      tableCell: { record: 'row-7', definition: 'price' },
      body: { markdown: 'Out of date?' },
    });
    expect(res.status).toBe(200);
    expect(res.body.target).toMatchObject({ tableCell: { record: 'row-7', definition: 'price' }, page: { id: f.pageId, outdated: false } });
    const cellOnly = await t.post(`/v1/spaces/${f.spaceId}/comments`, f.commenter.token, {
      tableCell: { record: 'row-7', definition: 'price' },
      body: { markdown: 'x' },
    });
    expect(cellOnly.status).toBe(400);
    expect(cellOnly.body.error.message).toBe(
      'Invalid body field "tableCell": a table cell is targeted within a page, so "page" is needed too.',
    );
  });
});

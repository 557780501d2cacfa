import { createPage, setPageMarkdown } from '@quire/shared/content/index';
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

async function edit(branch: Branch, change: (doc: Y.Doc) => void) {
  await t.db.transaction(async (tx) => {
    const { doc } = await loadYDoc(tx, branchDocId(branch));
    const before = Y.encodeStateVector(doc);
    change(doc);
    await commitToBranch(tx, branch, Y.encodeStateAsUpdate(doc, before));
  });
}

interface Fixture {
  spaceId: string;
  crId: string;
  crNumber: number;
  pageId: string;
  admin: TestUser;
  commenter: TestUser;
  other: TestUser;
  reader: TestUser;
}

async function fixture(): Promise<Fixture> {
  const { orgId, admin, members } = await t.org(['comment', 'comment', 'read']);
  const space = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Docs' })).body;
  let pageId = '';
  await edit({ spaceId: space.id }, (doc) => {
    pageId = createPage(doc, { title: 'Intro', markdown: 'Hello.\n\n## Usage\n\nCall it.\n' });
  });
  const cr = await t.post(`/v1/spaces/${space.id}/change-requests`, admin.token, { subject: 'Rework intro' });
  expect(cr.status).toBe(200);
  return {
    spaceId: space.id,
    crId: cr.body.id,
    crNumber: cr.body.number,
    pageId,
    admin,
    commenter: members[0]!,
    other: members[1]!,
    reader: members[2]!,
  };
}

describe('change request comments', () => {
  it('comments on a page of the change request branch, by id or number, and counts open comments', async () => {
    const f = await fixture();
    const base = `/v1/spaces/${f.spaceId}/change-requests/${f.crId}/comments`;
    const res = await t.post(base, f.commenter.token, { page: f.pageId, node: 'usage', body: { markdown: 'Clearer?' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'comment',
      target: {
        space: f.spaceId,
        changeRequest: f.crId,
        node: { id: 'usage', preview: 'Usage' },
        page: { id: f.pageId, title: 'Intro', path: 'intro', outdated: false },
      },
      urls: { location: `http://quire.test${base}/${res.body.id}` },
    });
    const byNumber = await t.get(`/v1/spaces/${f.spaceId}/change-requests/${f.crNumber}/comments/${res.body.id}`, f.reader.token);
    expect(byNumber.status).toBe(200);
    expect(byNumber.body.id).toBe(res.body.id);
    expect((await t.get(`/v1/spaces/${f.spaceId}/change-requests/${f.crId}`, f.admin.token)).body.comments).toBe(1);
    // A change request's comments are its own: not on the space, nor the other way round.
    expect((await t.get(`/v1/spaces/${f.spaceId}`, f.admin.token)).body.comments).toBe(0);
    expect((await t.get(`/v1/spaces/${f.spaceId}/comments/${res.body.id}`, f.admin.token)).status).toBe(404);
    expect((await t.get(`/v1/spaces/${f.spaceId}/comments`, f.admin.token)).body.count).toBe(0);

    // Edits on the change request's branch make the target outdated; main is untouched.
    await edit({ spaceId: f.spaceId, changeRequestId: f.crId }, (doc) => setPageMarkdown(doc, f.pageId, 'Hello.\n'));
    expect((await t.get(`${base}/${res.body.id}`, f.reader.token)).body.target.page.outdated).toBe(true);

    await t.put(`${base}/${res.body.id}`, f.other.token, { resolved: true });
    expect((await t.get(`/v1/spaces/${f.spaceId}/change-requests/${f.crId}`, f.admin.token)).body.comments).toBe(0);
  });

  it('lists with filters, refuses bad input, readers and unknown change requests', async () => {
    const f = await fixture();
    const base = `/v1/spaces/${f.spaceId}/change-requests/${f.crId}/comments`;
    const a = (await t.post(base, f.commenter.token, { body: { markdown: 'a' } })).body;
    const b = (await t.post(base, f.other.token, { page: f.pageId, body: { markdown: 'b' } })).body;
    const list = await t.get(`${base}?order=asc&authors=${f.commenter.id},${f.other.id}&format=document`, f.reader.token);
    expect(list.status).toBe(200);
    expect(list.body.items.map((x: { id: string }) => x.id)).toEqual([a.id, b.id]);
    expect(list.body.items[0].body.document.object).toBe('document');
    expect((await t.get(`${base}?targetPage=${f.pageId}`, f.reader.token)).body.items.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect((await t.get(`${base}?order=sideways`, f.reader.token)).status).toBe(400);
    const bad = await t.post(base, f.commenter.token, { body: { markdown: 'x' }, tableCell: { record: 'r' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Missing body field "tableCell.definition".');
    const denied = await t.post(base, f.reader.token, { body: { markdown: 'x' } });
    expect(denied.status).toBe(403);
    const unknown = await t.get(`/v1/spaces/${f.spaceId}/change-requests/999/comments`, f.reader.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('No matching change request found.');
    const stranger = await t.user();
    expect((await t.get(base, stranger.token)).status).toBe(404);
    expect((await t.get(base)).status).toBe(401);
    expect((await t.put(`${base}/${a.id}`, f.other.token, { body: { markdown: 'mine now' } })).status).toBe(403);
    expect((await t.delete(`${base}/${a.id}`, f.other.token)).status).toBe(403);
    expect((await t.delete(`${base}/${a.id}`, f.admin.token)).status).toBe(204);
    expect((await t.delete(`${base}/${a.id}`, f.admin.token)).status).toBe(204);
  });

  it('threads replies: list, post (with format), get, update and delete', async () => {
    const f = await fixture();
    const { body: comment } = await t.post(`/v1/spaces/${f.spaceId}/change-requests/${f.crId}/comments`, f.commenter.token, {
      page: f.pageId,
      tableCell: { record: 'row-1', definition: 'col-a' },
      body: { markdown: 'q' },
    });
    expect(comment.target.tableCell).toEqual({ record: 'row-1', definition: 'col-a' });
    const base = `/v1/spaces/${f.spaceId}/change-requests/${f.crId}/comments/${comment.id}/replies`;
    const reply = await t.post(`${base}?format=document`, f.other.token, { body: { markdown: 'answer' } });
    expect(reply.status).toBe(200);
    expect(reply.body.body.document.object).toBe('document');
    expect((await t.post(base, f.reader.token, { body: { markdown: 'x' } })).status).toBe(403);
    expect((await t.post(base, f.other.token, { body: 'answer' })).status).toBe(400);
    const second = (await t.post(base, f.commenter.token, { body: { markdown: 'thanks' } })).body;
    const list = await t.get(`${base}?limit=1`, f.reader.token);
    expect(list.body).toMatchObject({ count: 2, items: [{ id: reply.body.id }] });
    const next = await t.get(`${base}?limit=1&page=${list.body.next.page}`, f.reader.token);
    expect(next.body.items.map((x: { id: string }) => x.id)).toEqual([second.id]);
    expect((await t.get(`${base}/${second.id}`, f.reader.token)).body.body).toEqual({ markdown: 'thanks' });

    const updated = await t.put(`${base}/${reply.body.id}`, f.other.token, {
      body: { markdown: 'answer, edited' },
      addedReactions: ['✅'],
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ body: { markdown: 'answer, edited' }, reactions: [{ emoji: '✅', count: 1 }] });
    const notAuthor = await t.put(`${base}/${reply.body.id}`, f.commenter.token, { body: { markdown: 'no' } });
    expect(notAuthor.status).toBe(403);
    expect(notAuthor.body.error.message).toBe("Only the reply's author can edit its body.");
    expect((await t.put(`${base}/${reply.body.id}`, f.other.token, { colour: 1 })).status).toBe(400);
    expect((await t.delete(`${base}/${reply.body.id}`, f.commenter.token)).status).toBe(403);
    expect((await t.delete(`${base}/${reply.body.id}`, f.admin.token)).status).toBe(204);
    expect((await t.get(`${base}/${reply.body.id}`, f.reader.token)).status).toBe(404);
    expect((await t.get(`/v1/spaces/${f.spaceId}/change-requests/${f.crId}/comments/${comment.id}`, f.reader.token)).body.replies).toBe(1);
  });
  it('answers 401 without a token, 404 to strangers and 403 to readers, on every operation', async () => {
    const f = await fixture();
    const base = `/v1/spaces/${f.spaceId}/change-requests/${f.crId}/comments`;
    const { body: comment } = await t.post(base, f.commenter.token, { body: { markdown: 'c' } });
    const { body: reply } = await t.post(`${base}/${comment.id}/replies`, f.commenter.token, { body: { markdown: 'r' } });
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
      expect((await t.request(method, path, { body })).status, `${method} ${path} without a token`).toBe(401);
      // DELETE answers 204 whether or not there was anything the caller could delete.
      const hidden = method === 'DELETE' ? 204 : 404;
      expect((await t.request(method, path, { body, token: stranger.token })).status, `${method} ${path} by a stranger`).toBe(hidden);
    }
    for (const [method, path] of reads)
      expect((await t.request(method, path, { token: f.reader.token })).status, `${method} ${path}`).toBe(200);
    for (const [method, path, body] of writes) {
      expect((await t.request(method, path, { body, token: f.reader.token })).status, `${method} ${path} by a reader`).toBe(403);
    }
    expect((await t.get(`${base}/${comment.id}`, f.commenter.token)).body).toMatchObject({ status: 'open', replies: 1, reactions: [] });
    expect((await t.get(`${base}?limit=1000&status=open`, f.reader.token)).body.count).toBe(1);
    expect((await t.get(`${base}/${comment.id}/replies?limit=1001`, f.reader.token)).status).toBe(400);
  });

  it('updates and deletes replies like their space twins: body by the author only, reactions once per user', async () => {
    const f = await fixture();
    const base = `/v1/spaces/${f.spaceId}/change-requests/${f.crId}/comments`;
    const { body: comment } = await t.post(base, f.commenter.token, { body: { markdown: 'c' } });
    const url = `${base}/${comment.id}/replies/${(await t.post(`${base}/${comment.id}/replies`, f.other.token, { body: { markdown: 'r' } })).body.id}`;
    await t.put(url, f.commenter.token, { addedReactions: ['👍'] });
    await t.put(url, f.commenter.token, { addedReactions: ['👍'] });
    const reacted = await t.put(url, f.other.token, { addedReactions: ['👍'] });
    expect(reacted.body.reactions).toMatchObject([
      { emoji: '👍', count: 2, users: [{ user: { id: f.commenter.id } }, { user: { id: f.other.id } }] },
    ]);
    expect(reacted.body.editedAt).toBeUndefined();
    const both = await t.put(url, f.other.token, { addedReactions: ['👍'], removedReactions: ['👍'] });
    expect(both.status).toBe(400);
    expect((await t.put(url, f.other.token, {})).status).toBe(400);
    expect((await t.put(`${base}/${comment.id}/replies/AAAAAAAAAAAAAAAAAAAAAA`, f.other.token, { addedReactions: ['👍'] })).status).toBe(
      404,
    );
    expect((await t.delete(url, f.other.token)).status).toBe(204);
    expect((await t.delete(url, f.other.token)).status).toBe(204);
    expect((await t.get(`${base}/${comment.id}`, f.reader.token)).body.replies).toBe(0);
  });
});

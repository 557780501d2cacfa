import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPage, deletePage, setPageMarkdown } from '@quire/shared/content/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer } from '../../testing/harness';
import { editLive } from '../content/testEdits';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

async function space(token: string, orgId: string, title = 'Docs') {
  const res = await t.post(`/v1/orgs/${orgId}/spaces`, token, { title });
  expect(res.status).toBe(201);
  return res.body as { id: string; revision: string };
}

function hasPdftotext(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('change requests', () => {
  it('opens a change request forked from the current revision, numbered per space', async () => {
    const { orgId, admin, members } = await t.org(['edit', 'read']);
    const s = await space(admin.token, orgId);
    expect(s.revision).toMatch(/^[A-Za-z0-9]{20,}$/);
    const first = await t.post(`/v1/spaces/${s.id}/change-requests`, members[0]!.token, { subject: 'Fix typos' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'draft',
      subject: 'Fix typos',
      space: s.id,
      revisionInitial: s.revision,
      revisionMergedAncestor: s.revision,
      outdated: false,
      comments: 0,
      createdBy: { object: 'user', id: members[0]!.id },
      permissions: { view: true, edit: true, merge: false },
    });
    const second = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, {});
    expect(second.body.number).toBe(2);

    const byNumber = await t.get(`/v1/spaces/${s.id}/change-requests/2`, members[1]!.token);
    expect(byNumber.status).toBe(200);
    expect(byNumber.body.id).toBe(second.body.id);
    const again = await t.get(`/v1/spaces/${s.id}/change-requests/${second.body.id}`, members[1]!.token);
    expect(again.body).toEqual(byNumber.body);

    const counted = await t.get(`/v1/spaces/${s.id}`, admin.token);
    expect(counted.body).toMatchObject({ changeRequests: 2, changeRequestsDraft: 2, changeRequestsOpen: 0 });
  });

  it('refuses bad input, readers and strangers', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const s = await space(admin.token, orgId);
    const bad = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, { subject: 'x', color: 'red' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Unknown body field: "color".');
    const reader = await t.post(`/v1/spaces/${s.id}/change-requests`, members[0]!.token, { subject: 'x' });
    expect(reader.status).toBe(403);
    const stranger = await t.user();
    const hidden = await t.post(`/v1/spaces/${s.id}/change-requests`, stranger.token, { subject: 'x' });
    expect(hidden.status).toBe(404);
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, {});
    const foreign = await t.get(`/v1/spaces/${s.id}/change-requests/${cr.body.id}`, stranger.token);
    expect(foreign.status).toBe(404);
    const unknown = await t.get(`/v1/spaces/${s.id}/change-requests/AAAAAAAAAAAAAAAAAAAAAA`, admin.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: 404, message: 'No matching change request found.' } });
    // A change request of another space is not found through this one.
    const other = await space(admin.token, orgId, 'Other');
    const crossed = await t.get(`/v1/spaces/${other.id}/change-requests/${cr.body.id}`, admin.token);
    expect(crossed.status).toBe(404);
  });

  it('lists with filters and keyset pages, and refuses a bad limit', async () => {
    const { orgId, admin, members } = await t.org(['edit']);
    const s = await space(admin.token, orgId);
    const a = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, { subject: 'a' });
    const b = await t.post(`/v1/spaces/${s.id}/change-requests`, members[0]!.token, { subject: 'b' });
    await t.patch(`/v1/spaces/${s.id}/change-requests/${b.body.id}`, members[0]!.token, { status: 'open' });
    const open = await t.get(`/v1/spaces/${s.id}/change-requests?status=open`, admin.token);
    expect(open.body.items.map((x: { id: string }) => x.id)).toEqual([b.body.id]);
    const mine = await t.get(`/v1/spaces/${s.id}/change-requests?creator=${admin.id}`, admin.token);
    expect(mine.body.items.map((x: { id: string }) => x.id)).toEqual([a.body.id]);
    const page1 = await t.get(`/v1/spaces/${s.id}/change-requests?limit=1`, admin.token);
    expect(page1.body.count).toBe(2);
    const page2 = await t.get(`/v1/spaces/${s.id}/change-requests?limit=1&page=${page1.body.next.page}`, admin.token);
    expect([page1.body.items[0].id, page2.body.items[0].id].sort()).toEqual([a.body.id, b.body.id].sort());
    const badLimit = await t.get(`/v1/spaces/${s.id}/change-requests?limit=0`, admin.token);
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error.message).toBe('Invalid query parameter field "limit": must be at least 1.');
    const badStatus = await t.get(`/v1/spaces/${s.id}/change-requests?status=closed`, admin.token);
    expect(badStatus.status).toBe(400);

    const org = await t.get(`/v1/orgs/${orgId}/change-requests?status=open`, admin.token);
    expect(org.status).toBe(200);
    expect(org.body.items.map((x: { id: string }) => x.id)).toEqual([b.body.id]);
    const bySpace = await t.get(`/v1/orgs/${orgId}/change-requests?space=${s.id}&contributor=${members[0]!.id}`, admin.token);
    expect(bySpace.body.items.map((x: { id: string }) => x.id)).toEqual([b.body.id]);
    const none = await t.get(`/v1/orgs/${orgId}/change-requests?styleguideRun=AAAAAAAAAAAAAAAAAAAAAA`, admin.token);
    expect(none.body).toEqual({ items: [], count: 0 });
    expect((await t.get(`/v1/spaces/${s.id}/change-requests?topic=billing`, admin.token)).body).toEqual({ items: [], count: 0 });

    // Newest first by default; orderBy=updatedAt puts the last edited first.
    const ids = async (query: string) =>
      (await t.get(`/v1/spaces/${s.id}/change-requests?${query}`, admin.token)).body.items.map((x: { id: string }) => x.id);
    expect(await ids('')).toEqual([b.body.id, a.body.id]);
    await t.patch(`/v1/spaces/${s.id}/change-requests/${a.body.id}`, admin.token, { subject: 'a, edited' });
    expect(await ids('orderBy=updatedAt')).toEqual([a.body.id, b.body.id]);
    expect((await t.get(`/v1/spaces/${s.id}/change-requests?orderBy=title`, admin.token)).status).toBe(400);
    await t.post(`/v1/spaces/${s.id}/change-requests/${a.body.id}/requested-reviewers`, admin.token, { users: [members[0]!.id] });
    expect(await ids(`requestedReviewer=${members[0]!.id}`)).toEqual([a.body.id]);
    const orgReviewer = await t.get(`/v1/orgs/${orgId}/change-requests?requestedReviewer=${members[0]!.id}`, admin.token);
    expect(orgReviewer.body.items.map((x: { id: string }) => x.id)).toEqual([a.body.id]);
    const stranger = await t.user();
    expect((await t.get(`/v1/orgs/${orgId}/change-requests`, stranger.token)).status).toBe(404);
  });

  it('updates subject, description and status; merged is reached only by merging', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const s = await space(admin.token, orgId);
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, {});
    const path = `/v1/spaces/${s.id}/change-requests/${cr.body.id}`;
    const description = { object: 'document', data: { schemaVersion: 1 }, nodes: [{ object: 'block', type: 'paragraph', nodes: [] }] };
    const ok = await t.patch(path, admin.token, { subject: 'Renamed', description, status: 'open' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ subject: 'Renamed', description, status: 'open' });
    const merged = await t.patch(path, admin.token, { status: 'merged' });
    expect(merged.status).toBe(400);
    expect(merged.body.error.message).toMatch(/^Invalid body field "status"/);
    const empty = await t.patch(path, admin.token, {});
    expect(empty.status).toBe(400);
    const reader = await t.patch(path, members[0]!.token, { subject: 'No' });
    expect(reader.status).toBe(403);
    expect((await t.get(path, admin.token)).body.subject).toBe('Renamed');
  });

  it('merges as a CRDT merge: edits on both sides survive, then refuses a second merge', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const pageId = await editLive(t.db, { spaceId: s.id }, (doc) => createPage(doc, { title: 'Guide', markdown: 'First line.\n' }));
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, { subject: 'Edit' });
    const crBranch = { spaceId: s.id, changeRequestId: cr.body.id };
    // The change request adds a page and appends to the shared page; main edits the same page concurrently.
    await editLive(t.db, crBranch, (doc) => {
      createPage(doc, { title: 'New page', markdown: 'Hello from the change request.\n' });
      setPageMarkdown(doc, pageId, 'First line.\n\nAdded in the change request.\n');
    });
    await editLive(t.db, { spaceId: s.id }, (doc) => setPageMarkdown(doc, pageId, 'Edited on main. First line.\n'));

    const before = await t.get(`/v1/spaces/${s.id}/change-requests/${cr.body.id}`, admin.token);
    expect(before.body.outdated).toBe(true);
    const merged = await t.post(`/v1/spaces/${s.id}/change-requests/${cr.body.id}/merge`, admin.token);
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({ revision: expect.any(String), result: 'merge' });

    const spaceNow = await t.get(`/v1/spaces/${s.id}`, admin.token);
    expect(spaceNow.body.revision).toBe(merged.body.revision);
    const content = await t.get(`/v1/spaces/${s.id}/content`, admin.token);
    expect(content.body.pages.map((p: { title: string }) => p.title)).toEqual(['Guide', 'New page']);
    expect(content.body.parents).toHaveLength(2);
    const page = await t.get(`/v1/spaces/${s.id}/content/page/${pageId}?format=markdown`, admin.token);
    expect(page.body.markdown).toContain('Edited on main.');
    expect(page.body.markdown).toContain('Added in the change request.');

    const after = await t.get(`/v1/spaces/${s.id}/change-requests/${cr.body.id}`, admin.token);
    expect(after.body).toMatchObject({ status: 'merged', revisionMerged: merged.body.revision, outdated: false });
    const twice = await t.post(`/v1/spaces/${s.id}/change-requests/${cr.body.id}/merge`, admin.token);
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe('The change request is already merged: it cannot be merged again.');
    const status = await t.patch(`/v1/spaces/${s.id}/change-requests/${cr.body.id}`, admin.token, { status: 'open' });
    expect(status.status).toBe(409);
  });

  it('lands concurrent merges, a change request opening and a live edit without losing any', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const crs = await Promise.all(['A', 'B', 'C'].map((subject) => t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, { subject })));
    expect(crs.map((c) => c.body.number).sort()).toEqual([1, 2, 3]);
    for (const cr of crs) {
      await editLive(t.db, { spaceId: s.id, changeRequestId: cr.body.id }, (doc) => createPage(doc, { title: `From ${cr.body.subject}` }));
    }
    const results = await Promise.all([
      ...crs.map((cr) => t.post(`/v1/spaces/${s.id}/change-requests/${cr.body.id}/merge`, admin.token)),
      t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, { subject: 'D' }),
      editLive(t.db, { spaceId: s.id }, (doc) => createPage(doc, { title: 'Live' })).then(() => ({ status: 200 })),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const pages = await t.get(`/v1/spaces/${s.id}/content/pages`, admin.token);
    expect(pages.body.pages.map((p: { title: string }) => p.title).sort()).toEqual(['From A', 'From B', 'From C', 'Live']);
  });

  it('refuses merging in a locked space, an archived change request, and callers below review', async () => {
    const { orgId, admin, members } = await t.org(['edit']);
    const s = await space(admin.token, orgId);
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, {});
    const merge = `/v1/spaces/${s.id}/change-requests/${cr.body.id}/merge`;
    const editor = await t.post(merge, members[0]!.token);
    expect(editor.status).toBe(403);
    await t.patch(`/v1/spaces/${s.id}`, admin.token, { editMode: 'locked' });
    const locked = await t.post(merge, admin.token);
    expect(locked.status).toBe(409);
    expect(locked.body.error.message).toBe('The space is locked: change requests cannot be merged until it is live again.');
    await t.patch(`/v1/spaces/${s.id}`, admin.token, { editMode: 'live' });
    await t.patch(`/v1/spaces/${s.id}/change-requests/${cr.body.id}`, admin.token, { status: 'archived' });
    const archived = await t.post(merge, admin.token);
    expect(archived.status).toBe(409);
    expect(archived.body.error.message).toMatch(/archived/);
    const stillThere = await t.get(`/v1/spaces/${s.id}/change-requests/${cr.body.id}`, admin.token);
    expect(stillThere.body.status).toBe('archived');
  });

  it('updates from main: takes main edits (deletions too) and is no longer outdated', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const [keep, drop] = await editLive(t.db, { spaceId: s.id }, (doc) => [
      createPage(doc, { title: 'Keep' }),
      createPage(doc, { title: 'Drop' }),
    ]);
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, {});
    const path = `/v1/spaces/${s.id}/change-requests/${cr.body.id}`;
    await editLive(t.db, { spaceId: s.id }, (doc) => deletePage(doc, drop as string));
    expect((await t.get(path, admin.token)).body.outdated).toBe(true);
    const updated = await t.post(`${path}/update`, admin.token);
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ revision: expect.any(String), result: 'update' });
    const now = await t.get(path, admin.token);
    expect(now.body).toMatchObject({ outdated: false, revision: updated.body.revision });
    expect(now.body.revisionMergedAncestor).toBe((await t.get(`/v1/spaces/${s.id}`, admin.token)).body.revision);
    const pages = await t.get(`${path}/content/pages`, admin.token);
    expect(pages.body.pages.map((p: { id: string }) => p.id)).toEqual([keep]);
    // Nothing new on main: another update changes nothing.
    const again = await t.post(`${path}/update`, admin.token);
    expect(again.body.revision).toBe(updated.body.revision);
    await t.post(`${path}/merge`, admin.token);
    const late = await t.post(`${path}/update`, admin.token);
    expect(late.status).toBe(409);
  });

  it('enforces merge rules inherited from the organization, met by approving the current revision', async () => {
    const { orgId, admin, members } = await t.org(['review', 'edit']);
    const [reviewer, editor] = members as [(typeof members)[0], (typeof members)[0]];
    await t.patch(`/v1/orgs/${orgId}`, admin.token, {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewer.id] }] },
    });
    const s = await space(admin.token, orgId);
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, editor.token, { subject: 'Needs review' });
    const path = `/v1/spaces/${s.id}/change-requests/${cr.body.id}`;

    const refused = await t.post(`${path}/merge`, admin.token);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      `The merge rules of this space are not met: an approval of the current revision is required from user ${reviewer.id}.`,
    );

    const requested = await t.post(`${path}/requested-reviewers`, editor.token, { users: [reviewer.id] });
    expect(requested.status).toBe(200);
    expect(requested.body.items).toMatchObject([{ object: 'change-request-requested-reviewer', user: { id: reviewer.id } }]);
    const unknownUser = await t.post(`${path}/requested-reviewers`, editor.token, { users: ['AAAAAAAAAAAAAAAAAAAAAA'] });
    expect(unknownUser.status).toBe(404);
    const badBody = await t.post(`${path}/requested-reviewers`, editor.token, { users: [] });
    expect(badBody.status).toBe(400);

    const selfReview = await t.post(`${path}/reviews`, editor.token, { status: 'approved' });
    expect(selfReview.status).toBe(403);
    const badStatus = await t.post(`${path}/reviews`, reviewer.token, { status: 'lgtm' });
    expect(badStatus.status).toBe(400);
    const approved = await t.post(`${path}/reviews`, reviewer.token, { status: 'approved' });
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({
      object: 'change-request-review',
      status: 'approved',
      reviewer: { id: reviewer.id },
      outdated: false,
    });

    // An edit after the approval makes it outdated: the rule is not met again until a new approval.
    await editLive(t.db, { spaceId: s.id, changeRequestId: cr.body.id }, (doc) => createPage(doc, { title: 'Late edit' }));
    const stale = await t.post(`${path}/merge`, admin.token);
    expect(stale.status).toBe(409);
    const reviews = await t.get(`${path}/reviews`, admin.token);
    expect(reviews.body.items).toMatchObject([{ id: approved.body.id, outdated: true }]);
    await t.post(`${path}/reviews`, reviewer.token, { status: 'approved' });
    const merged = await t.post(`${path}/merge`, reviewer.token);
    expect(merged.status).toBe(200);

    const listed = await t.get(`${path}/requested-reviewers`, editor.token);
    expect(listed.body.items[0]).toMatchObject({ user: { id: reviewer.id }, review: 'approved' });
    const removed = await t.delete(`${path}/requested-reviewers/${reviewer.id}`, editor.token);
    expect(removed.status).toBe(204);
    expect((await t.get(`${path}/requested-reviewers`, editor.token)).body.count).toBe(0);
  });

  it("enforces a space's own merge rules over the organization's", async () => {
    const { orgId, admin, members } = await t.org(['review', 'review']);
    const [orgReviewer, spaceReviewer] = members as [(typeof members)[0], (typeof members)[0]];
    await t.patch(`/v1/orgs/${orgId}`, admin.token, {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [orgReviewer.id] }] },
    });
    const s = await space(admin.token, orgId);
    const rules = await t.patch(`/v1/spaces/${s.id}`, admin.token, {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [spaceReviewer.id] }] },
    });
    expect(rules.status).toBe(200);
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, {});
    const path = `/v1/spaces/${s.id}/change-requests/${cr.body.id}`;
    await t.post(`${path}/reviews`, orgReviewer.token, { status: 'approved' });
    const refused = await t.post(`${path}/merge`, admin.token);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`user ${spaceReviewer.id}`);
    const changes = await t.post(`${path}/reviews`, spaceReviewer.token, { status: 'changes-requested' });
    expect(changes.status).toBe(201);
    expect((await t.post(`${path}/merge`, admin.token)).status).toBe(409);
    await t.post(`${path}/reviews`, spaceReviewer.token, { status: 'approved' });
    expect((await t.post(`${path}/merge`, admin.token)).status).toBe(200);
    const late = await t.post(`${path}/reviews`, spaceReviewer.token, { status: 'approved' });
    expect(late.status).toBe(409);
  });

  it('serves the change request content as a PDF that pdftotext reads', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const s = await space(admin.token, orgId);
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, { subject: 'Release notes — выпуск 2' });
    const pageId = await editLive(t.db, { spaceId: s.id, changeRequestId: cr.body.id }, (doc) => {
      createPage(doc, { title: 'Other page', markdown: 'Not in the single-page PDF.\n' });
      return createPage(doc, {
        title: 'Install guide',
        markdown:
          '## Requirements\n\nNode twenty or later.\n\nПривет, мир. Γειά σου κόσμε. x ≤ y → z\n\n```js\nconst café = "naïve";\n```\n\n* one\n* two\n',
      });
    });
    const path = `/v1/spaces/${s.id}/change-requests/${cr.body.id}/pdf`;
    const whole = await t.get(path, members[0]!.token);
    expect(whole.status).toBe(200);
    expect(whole.body.url).toMatch(/^http:\/\/quire\.test\/exports\/.+\.pdf\?exp=\d+&by=t\.[^&]+&sig=/);
    const one = await t.get(`${path}?only=true&page=${pageId}`, members[0]!.token);
    const missing = await t.get(`${path}?only=true`, members[0]!.token);
    expect(missing.status).toBe(400);
    const unknownPage = await t.get(`${path}?only=true&page=AAAAAAAAAAAAAAAAAAAAAA`, members[0]!.token);
    expect(unknownPage.status).toBe(404);

    const fetchPdf = async (url: string) => {
      const res = await t.app.request(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      return Buffer.from(await res.arrayBuffer());
    };
    const pdf = await fetchPdf(one.body.url);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const tampered = await t.app.request(one.body.url.replace(/sig=[^&]+/, 'sig=AAAA'));
    expect(tampered.status).toBe(403);
    if (hasPdftotext()) {
      const dir = mkdtempSync(join(tmpdir(), 'quire-pdf-'));
      writeFileSync(join(dir, 'one.pdf'), pdf);
      writeFileSync(join(dir, 'whole.pdf'), await fetchPdf(whole.body.url));
      const text = execFileSync('pdftotext', [join(dir, 'one.pdf'), '-']).toString();
      expect(text).toContain('Install guide');
      expect(text).toContain('Node twenty or later.');
      // Text beyond Latin-1 keeps its letters, in prose and in code.
      expect(text).toContain('Привет, мир. Γειά σου κόσμε. x ≤ y → z');
      expect(text).toContain('const café = "naïve";');
      expect(text).not.toContain('Not in the single-page PDF.');
      const all = execFileSync('pdftotext', [join(dir, 'whole.pdf'), '-']).toString();
      expect(all).toContain('Release notes — выпуск 2');
      expect(all).toContain('Not in the single-page PDF.');
    }
  });

  it('counts the broken links a change request introduces apart from those main already had', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const NO_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
    const ids = await editLive(t.db, { spaceId: s.id }, (doc) => {
      const doomed = createPage(doc, { title: 'Doomed', markdown: '## Setup\n\nText.\n' });
      const ref = createPage(doc, { title: 'Ref', markdown: `[doomed](page:${doomed})\n` });
      const old = createPage(doc, { title: 'Old', markdown: `[gone](page:${NO_ID})\n` });
      return { doomed, ref, old };
    });
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, {});
    await editLive(t.db, { spaceId: s.id, changeRequestId: cr.body.id }, (doc) => {
      deletePage(doc, ids.doomed);
      setPageMarkdown(doc, ids.old, `[gone](page:${NO_ID})\n\n[typo](page:${ids.ref}#nowhere)\n`);
    });
    const CR = `/v1/spaces/${s.id}/change-requests/${cr.body.id}/content/page`;
    // Ref is unchanged, but the page it links to is deleted by the change request.
    expect((await t.get(`${CR}/${ids.ref}/links`, admin.token)).body.stats).toEqual({ total: 1, broken: { total: 1, changeRequest: 1 } });
    // Old had one broken link already; the change request adds another.
    expect((await t.get(`${CR}/${ids.old}/links`, admin.token)).body.stats).toEqual({ total: 2, broken: { total: 2, changeRequest: 1 } });
    const main = await t.get(`/v1/spaces/${s.id}/content/page/${ids.old}/links`, admin.token);
    expect(main.body.stats).toEqual({ total: 1, broken: { total: 1, changeRequest: 0 } });
  });

  it('reads the change request branch through the content operations', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, {});
    const pageId = await editLive(t.db, { spaceId: s.id, changeRequestId: cr.body.id }, (doc) =>
      createPage(doc, { title: 'Draft only', markdown: 'See [below](#details).\n\n## Details\n\nText.\n' }),
    );
    const base = `/v1/spaces/${s.id}/change-requests/${cr.body.number}`;
    const content = await t.get(`${base}/content`, admin.token);
    expect(content.status).toBe(200);
    expect(content.body).toMatchObject({ object: 'revision', pages: [{ id: pageId, title: 'Draft only', path: 'draft-only' }] });
    expect((await t.get(`/v1/spaces/${s.id}/content/pages`, admin.token)).body.pages).toEqual([]);
    const page = await t.get(`${base}/content/page/${pageId}?format=markdown`, admin.token);
    expect(page.body.markdown).toBe('See [below](#details).\n\n## Details\n\nText.\n');
    const links = await t.get(`${base}/content/page/${pageId}/links`, admin.token);
    expect(links.body.stats).toEqual({ total: 1, broken: { total: 0, changeRequest: 0 } });
    const files = await t.get(`${base}/content/files`, admin.token);
    expect(files.body).toEqual({ items: [], count: 0 });
    const noFile = await t.get(`${base}/content/files/AAAAAAAAAAAAAAAAAAAAAA`, admin.token);
    expect(noFile.status).toBe(404);
    expect(noFile.body.error.message).toBe('No matching file found.');
    const noBacklinks = await t.get(`${base}/content/files/AAAAAAAAAAAAAAAAAAAAAA/backlinks`, admin.token);
    expect(noBacklinks.status).toBe(404);
    const noPage = await t.get(`${base}/content/page/AAAAAAAAAAAAAAAAAAAAAA`, admin.token);
    expect(noPage.status).toBe(404);
  });
});

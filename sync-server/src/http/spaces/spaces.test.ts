import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setGrant } from '../../store/grants';
import { runBackgroundJobs } from '../../core/platform/jobs';
import { NO_COLLECTION, NO_MEMBER, NO_ORG, NO_SPACE, UNKNOWN_ID, expectError } from '../../testing/apiExpect';
import { testAdapter } from '../../testing/databases';
import { type TestUser, TestServer } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

const ADMIN_ON_SPACE = 'This needs the admin role on the space.';
const INVALID_POSITION = 'Invalid body field "position": invalid position space or collection provided.';
const NO_UPDATE = 'The operation would not result in any update.';

async function space(orgId: string, token: string, body: Record<string, unknown> = { title: 'Docs' }) {
  const res = await t.post(`/v1/orgs/${orgId}/spaces`, token, body);
  expect(res.status).toBe(201);
  return res.body as { id: string; updatedAt: string; shareKey?: string };
}

async function collection(orgId: string, token: string, body: Record<string, unknown>) {
  const res = await t.post(`/v1/orgs/${orgId}/collections`, token, body);
  expect(res.status).toBe(200);
  return res.body as { id: string };
}

async function siblings(orgId: string, parentId: string | null): Promise<string[]> {
  const rows = await t.db.query<{ id: string }>(
    `SELECT id FROM (
       SELECT id, position FROM spaces WHERE org_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL
       UNION ALL SELECT id, position FROM collections WHERE org_id = $1 AND parent_id IS NOT DISTINCT FROM $2) x
     ORDER BY position COLLATE "C"`,
    [orgId, parentId],
  );
  return rows.map((r) => r.id);
}

const before = (id: string) => ({ position: { before: { type: 'space', space: id } } });
const after = (id: string) => ({ position: { after: { type: 'space', space: id } } });

describe('GET /v1/spaces/{spaceId}', () => {
  it('answers a space with permissions for the caller; the share key only to admins', async () => {
    const { orgId, admin, members } = await t.org(['edit']);
    const s = await space(orgId, admin.token, { title: 'Docs', emoji: '📗' });
    const asAdmin = await t.get(`/v1/spaces/${s.id}`, admin.token);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toEqual({
      object: 'space',
      id: s.id,
      title: 'Docs',
      emoji: '📗',
      visibility: 'private',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      urls: { location: `http://quire.test/v1/spaces/${s.id}`, app: `http://quire.test/app/spaces/${s.id}` },
      organization: orgId,
      revision: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      shareKey: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
      permissions: {
        view: true,
        access: true,
        admin: true,
        viewInviteLinks: true,
        edit: true,
        triggerGitSync: true,
        comment: true,
        merge: true,
        review: true,
        installIntegration: true,
      },
    });
    const asEditor = await t.get(`/v1/spaces/${s.id}`, members[0]!.token);
    expect(asEditor.body.shareKey).toBeUndefined();
    expect(asEditor.body.permissions).toMatchObject({ view: true, edit: true, comment: true, review: false, merge: false, admin: false });
  });

  it('opens a share-link space, read-only, to anyone holding its key', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(orgId, admin.token);
    const key = (await t.get(`/v1/spaces/${s.id}`, admin.token)).body.shareKey as string;
    const stranger = await t.user();
    expectError(await t.get(`/v1/spaces/${s.id}?shareKey=${key}`, stranger.token), 404, NO_SPACE);
    await t.patch(`/v1/spaces/${s.id}`, admin.token, { visibility: 'share-link' });
    const shared = await t.get(`/v1/spaces/${s.id}?shareKey=${key}`, stranger.token);
    expect(shared.status).toBe(200);
    expect(shared.body.shareKey).toBeUndefined();
    expect(shared.body.permissions).toMatchObject({ view: true, access: true, edit: false, comment: false, admin: false });
    expectError(await t.get(`/v1/spaces/${s.id}?shareKey=wrong-key`, stranger.token), 404, NO_SPACE);
  });

  it('refuses bad input (400); guests without a grant, outsiders and unknown ids get 404', async () => {
    const { orgId, admin, members } = await t.org([null]);
    const s = await space(orgId, admin.token);
    expectError(
      await t.get('/v1/spaces/%27', admin.token),
      400,
      'Invalid path parameter field "spaceId": must be an id (letters, digits, _ and -).',
    );
    expectError(
      await t.get(`/v1/spaces/${s.id}?shareKey=${'k'.repeat(257)}`, admin.token),
      400,
      'Invalid query parameter field "shareKey": Too big: expected string to have <=256 characters.',
    );
    expectError(
      await t.get(`/v1/spaces/${s.id}?shareKey=a%00b`, admin.token),
      400,
      'Invalid query parameter field "shareKey": must not contain NUL characters.',
    );
    expectError(await t.get(`/v1/spaces/${s.id}`, members[0]!.token), 404, NO_SPACE);
    const stranger = await t.user();
    const foreign = await t.get(`/v1/spaces/${s.id}`, stranger.token);
    expectError(foreign, 404, NO_SPACE);
    expect(foreign.body).toEqual((await t.get(`/v1/spaces/${UNKNOWN_ID}`, stranger.token)).body);
  });
});

describe('DELETE /v1/spaces/{spaceId}', () => {
  it('deletes a space softly; 204 again; gone from reads and lists', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(orgId, admin.token);
    const first = await t.delete(`/v1/spaces/${s.id}`, admin.token);
    expect(first.status).toBe(204);
    expect(first.body).toBeUndefined();
    expectError(await t.get(`/v1/spaces/${s.id}`, admin.token), 404, NO_SPACE);
    expect((await t.get(`/v1/orgs/${orgId}/spaces`, admin.token)).body.count).toBe(0);
    expect((await t.delete(`/v1/spaces/${s.id}`, admin.token)).status).toBe(204);
  });

  it('refuses a bad id (400) and members below admin (403); outsiders get 204 and delete nothing', async () => {
    const { orgId, admin, members } = await t.org(['create']);
    const s = await space(orgId, admin.token);
    expectError(await t.delete('/v1/spaces/%C3%BC', admin.token), 400, /^Invalid path parameter field "spaceId"/);
    expectError(await t.delete(`/v1/spaces/${s.id}`, members[0]!.token), 403, ADMIN_ON_SPACE);
    const stranger = await t.user();
    expect((await t.delete(`/v1/spaces/${s.id}`, stranger.token)).status).toBe(204);
    expect((await t.get(`/v1/spaces/${s.id}`, admin.token)).status).toBe(200);
  });
});

describe('PATCH /v1/spaces/{spaceId}', () => {
  it('changes every field the specification lists', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(orgId, admin.token);
    const res = await t.patch(`/v1/spaces/${s.id}`, admin.token, {
      editMode: 'locked',
      title: 'Renamed',
      defaultLevel: 'comment',
      language: 'fr',
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [admin.id] }] },
      emoji: '🚀',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      editMode: 'locked',
      title: 'Renamed',
      defaultLevel: 'comment',
      language: 'fr',
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [admin.id] }] },
      emoji: '🚀',
      permissions: { edit: false, merge: false, admin: true },
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(s.updatedAt));
    expect((await t.get(`/v1/spaces/${s.id}`, admin.token)).body).toEqual(res.body);
    const cleared = await t.patch(`/v1/spaces/${s.id}`, admin.token, {
      emoji: null,
      language: null,
      defaultLevel: 'inherit',
      editMode: 'live',
    });
    expect(cleared.body.emoji).toBeUndefined();
    expect(cleared.body.language).toBeUndefined();
    expect(cleared.body).toMatchObject({ defaultLevel: 'inherit', editMode: 'live' });
    // null: no default access, not "inherit"
    const none = await t.patch(`/v1/spaces/${s.id}`, admin.token, { defaultLevel: null });
    expect(none.status).toBe(200);
    expect(none.body.defaultLevel).toBeNull();
    expect((await t.get(`/v1/spaces/${s.id}`, admin.token)).body.defaultLevel).toBeNull();
  });

  it('lets editors change title, emoji and language, and keeps access settings to admins', async () => {
    const { orgId, admin, members } = await t.org(['edit', 'comment']);
    const [editor, commenter] = members as [TestUser, TestUser];
    const s = await space(orgId, admin.token);
    const ok = await t.patch(`/v1/spaces/${s.id}`, editor.token, { title: 'By editor', emoji: '✏️', language: 'de' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ title: 'By editor', emoji: '✏️', language: 'de' });
    expectError(await t.patch(`/v1/spaces/${s.id}`, editor.token, { title: 'X', defaultLevel: 'admin' }), 403, ADMIN_ON_SPACE);
    expectError(await t.patch(`/v1/spaces/${s.id}`, editor.token, { editMode: 'locked' }), 403, ADMIN_ON_SPACE);
    expectError(await t.patch(`/v1/spaces/${s.id}`, commenter.token, { title: 'X' }), 403, 'This needs the edit role on the space.');
    await t.patch(`/v1/spaces/${s.id}`, admin.token, { editMode: 'locked' });
    expectError(
      await t.patch(`/v1/spaces/${s.id}`, editor.token, { title: 'Locked out' }),
      403,
      'The space is locked: only an admin can change it.',
    );
    expect((await t.get(`/v1/spaces/${s.id}`, admin.token)).body).toMatchObject({ title: 'By editor', defaultLevel: 'inherit' });
  });

  it('refuses bad input (400), outsiders and unknown ids (404), changing nothing', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(orgId, admin.token);
    const url = `/v1/spaces/${s.id}`;
    const original = (await t.get(url, admin.token)).body;
    expectError(await t.patch(url, admin.token, {}), 400, 'Invalid body: must set at least one field.');
    expectError(
      await t.patch(url, admin.token, { editMode: 'frozen' }),
      400,
      'Invalid body field "editMode": Invalid option: expected one of "live"|"locked".',
    );
    expectError(
      await t.patch(url, admin.token, { language: 'english' }),
      400,
      'Invalid body field "language": must be a language code such as en or pt-BR.',
    );
    expectError(
      await t.patch(url, admin.token, { emoji: 'e'.repeat(51) }),
      400,
      'Invalid body field "emoji": Too big: expected string to have <=50 characters.',
    );
    expectError(
      await t.patch(url, admin.token, { mergeRules: { type: 'rules', rules: [{ rule: 'anything', users: [] }] } }),
      400,
      /^Invalid body field "mergeRules\.rules\.0\.rule"/,
    );
    expectError(await t.patch(url, admin.token, { title: 'T', gitSync: {} }), 400, 'Unknown body field: "gitSync".');
    // A reviewer must be a member of the space's organization: anyone else is an unknown id.
    const outsider = await t.user();
    const foreignReviewer = {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [admin.id, outsider.id] }] },
    };
    expectError(await t.patch(url, admin.token, foreignReviewer), 404, NO_MEMBER);
    expectError(
      await t.patch(url, admin.token, { visibility: 'in-collection' }),
      400,
      'Invalid body field "visibility": "in-collection" is only for spaces in a collection.',
    );
    const stranger = await t.user();
    expectError(await t.patch(url, stranger.token, { title: 'Nope' }), 404, NO_SPACE);
    expectError(await t.patch(`/v1/spaces/${UNKNOWN_ID}`, admin.token, { title: 'Nope' }), 404, NO_SPACE);
    expect((await t.get(url, admin.token)).body).toEqual(original);
  });
});

describe('POST /v1/spaces/{spaceId}/duplicate', () => {
  it('copies a space in the same place, with its settings and grants', async () => {
    const { orgId, admin, members } = await t.org(['create', 'read']);
    const col = await collection(orgId, admin.token, { title: 'C' });
    const s = await space(orgId, admin.token, { title: 'Original', emoji: '📘', parent: col.id, language: 'en' });
    await t.patch(`/v1/spaces/${s.id}`, admin.token, { defaultLevel: 'edit', visibility: 'in-collection' });
    await setGrant(t.db, {
      resource_id: s.id,
      resource_kind: 'space',
      principal_id: members[1]!.id,
      principal_kind: 'user',
      role: 'admin',
    });
    await setGrant(t.db, {
      resource_id: s.id,
      resource_kind: 'space',
      principal_id: members[0]!.id,
      principal_kind: 'user',
      role: 'review',
    });
    const copy = await t.post(`/v1/spaces/${s.id}/duplicate`, members[0]!.token);
    expect(copy.status).toBe(200);
    // The caller's own grant came along, and the answer says so at once.
    expect(copy.body.permissions).toMatchObject({ review: true, admin: false });
    expect(copy.body.id).not.toBe(s.id);
    expect(copy.body).toMatchObject({
      object: 'space',
      title: 'Original (copy)',
      emoji: '📘',
      language: 'en',
      parent: col.id,
      defaultLevel: 'edit',
      visibility: 'in-collection',
      organization: orgId,
    });
    expect(copy.body.shareKey).not.toBe((await t.get(`/v1/spaces/${s.id}`, admin.token)).body.shareKey);
    expect((await t.get(`/v1/spaces/${copy.body.id}`, members[1]!.token)).body.permissions.admin).toBe(true);
    expect(await siblings(orgId, col.id)).toEqual([s.id, copy.body.id]);
  });

  it('refuses a bad id (400), readers who cannot create where the copy goes (403), outsiders (404)', async () => {
    const { orgId, admin, members } = await t.org(['edit', null]);
    const s = await space(orgId, admin.token);
    await setGrant(t.db, {
      resource_id: s.id,
      resource_kind: 'space',
      principal_id: members[1]!.id,
      principal_kind: 'user',
      role: 'admin',
    });
    expectError(await t.post('/v1/spaces/a.b/duplicate', admin.token), 400, /^Invalid path parameter field "spaceId"/);
    expectError(await t.post(`/v1/spaces/${s.id}/duplicate`, members[0]!.token), 403, 'This needs the create role where the copy goes.');
    expectError(await t.post(`/v1/spaces/${s.id}/duplicate`, members[1]!.token), 403, 'This needs the create role where the copy goes.');
    const stranger = await t.user();
    expectError(await t.post(`/v1/spaces/${s.id}/duplicate`, stranger.token), 404, NO_SPACE);
    expect((await t.get(`/v1/orgs/${orgId}/spaces`, admin.token)).body.count).toBe(1);
  });
});

describe('POST /v1/spaces/{spaceId}/restore', () => {
  it('restores a deleted space within 7 days; restoring a live one changes nothing', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(orgId, admin.token);
    await t.delete(`/v1/spaces/${s.id}`, admin.token);
    await t.db.query("UPDATE spaces SET deleted_at = now() - interval '6 days' WHERE id = $1", [s.id]);
    const res = await t.post(`/v1/spaces/${s.id}/restore`, admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'space', id: s.id });
    expect(res.body.deletedAt).toBeUndefined();
    expect((await t.get(`/v1/spaces/${s.id}`, admin.token)).status).toBe(200);
    const again = await t.post(`/v1/spaces/${s.id}/restore`, admin.token);
    expect(again.body).toEqual((await t.get(`/v1/spaces/${s.id}`, admin.token)).body);
  });

  it('answers 404 past the retention period, and the background job purges the space and its documents for good', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const s = await space(orgId, admin.token);
    const kept = await space(orgId, admin.token);
    await setGrant(t.db, { resource_id: s.id, resource_kind: 'space', principal_id: members[0]!.id, principal_kind: 'user', role: 'edit' });
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, { subject: 'Draft' });
    expect(cr.status).toBe(200);
    const docsOf = async (spaceId: string, crId?: string) =>
      (await t.db.query<{ id: string }>('SELECT id FROM ydocs WHERE id = ANY($1) ORDER BY id', [[`space:${spaceId}`, `cr:${crId}`]])).map(
        (r) => r.id,
      );
    // The main branch's document exists once someone edits live; stand in for that edit.
    await t.db.query('INSERT INTO ydocs (id) VALUES ($1) ON CONFLICT DO NOTHING', [`space:${s.id}`]);
    expect(await docsOf(s.id, cr.body.id)).toEqual([`cr:${cr.body.id}`, `space:${s.id}`]);

    await t.delete(`/v1/spaces/${s.id}`, admin.token);
    await t.delete(`/v1/spaces/${kept.id}`, admin.token);
    await t.db.query("UPDATE spaces SET deleted_at = now() - interval '7 days 1 minute' WHERE id = $1", [s.id]);
    await t.db.query("UPDATE spaces SET deleted_at = now() - interval '6 days 23 hours' WHERE id = $1", [kept.id]);
    expectError(await t.post(`/v1/spaces/${s.id}/restore`, admin.token), 404, NO_SPACE);

    const { purgedSpaces } = await runBackgroundJobs(t.db, t.deps.log);
    expect(purgedSpaces).toContain(s.id);
    expect(purgedSpaces).not.toContain(kept.id);
    expect(await t.db.query('SELECT id FROM spaces WHERE id = $1', [s.id])).toEqual([]);
    expect(await t.db.query('SELECT * FROM grants WHERE resource_id = $1', [s.id])).toEqual([]);
    expect(await t.db.query('SELECT id FROM change_requests WHERE space_id = $1', [s.id])).toEqual([]);
    expect(await docsOf(s.id, cr.body.id)).toEqual([]);
    // Still within its 7 days: restorable.
    expect((await t.post(`/v1/spaces/${kept.id}/restore`, admin.token)).status).toBe(200);
    expect((await runBackgroundJobs(t.db, t.deps.log)).purgedSpaces).not.toContain(s.id);
  });

  it('refuses a bad id (400), members below admin (403), outsiders (404), restoring nothing', async () => {
    const { orgId, admin, members } = await t.org(['create']);
    const s = await space(orgId, admin.token);
    await t.delete(`/v1/spaces/${s.id}`, admin.token);
    expectError(await t.post('/v1/spaces/%00/restore', admin.token), 400, /^Invalid path parameter field "spaceId"/);
    expectError(await t.post(`/v1/spaces/${s.id}/restore`, members[0]!.token), 403, ADMIN_ON_SPACE);
    const stranger = await t.user();
    expectError(await t.post(`/v1/spaces/${s.id}/restore`, stranger.token), 404, NO_SPACE);
    expectError(await t.get(`/v1/spaces/${s.id}`, admin.token), 404, NO_SPACE);
  });
});

describe('POST /v1/spaces/{spaceId}/move', () => {
  it('moves a space into a collection, among siblings, and back to the root', async () => {
    const { orgId, admin } = await t.org();
    const a = await space(orgId, admin.token, { title: 'A' });
    const b = await space(orgId, admin.token, { title: 'B' });
    const c = await space(orgId, admin.token, { title: 'C' });
    const col = await collection(orgId, admin.token, { title: 'Col' });
    expect(await siblings(orgId, null)).toEqual([a.id, b.id, c.id, col.id]);

    const moved = await t.post(`/v1/spaces/${c.id}/move`, admin.token, before(a.id));
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ object: 'space', id: c.id });
    expect(await siblings(orgId, null)).toEqual([c.id, a.id, b.id, col.id]);

    await t.post(`/v1/spaces/${c.id}/move`, admin.token, after(b.id));
    expect(await siblings(orgId, null)).toEqual([a.id, b.id, c.id, col.id]);

    await t.post(`/v1/spaces/${a.id}/move`, admin.token, {
      position: { after: { type: 'space', space: b.id }, before: { type: 'space', space: c.id } },
    });
    expect(await siblings(orgId, null)).toEqual([b.id, a.id, c.id, col.id]);

    const into = await t.post(`/v1/spaces/${b.id}/move`, admin.token, { parent: col.id });
    expect(into.body.parent).toBe(col.id);
    expect(await siblings(orgId, col.id)).toEqual([b.id]);
    await t.post(`/v1/spaces/${a.id}/move`, admin.token, { parent: col.id, ...before(b.id) });
    expect(await siblings(orgId, col.id)).toEqual([a.id, b.id]);
    const out = await t.post(`/v1/spaces/${b.id}/move`, admin.token, {
      parent: null,
      position: { before: { type: 'collection', collection: col.id } },
    });
    expect(out.body.parent).toBeUndefined();
    expect(await siblings(orgId, null)).toEqual([c.id, b.id, col.id]);
  });

  it('refuses an invalid position (Errors table)', async () => {
    const { orgId, admin } = await t.org();
    const a = await space(orgId, admin.token, { title: 'A' });
    const b = await space(orgId, admin.token, { title: 'B' });
    const c = await space(orgId, admin.token, { title: 'C' });
    const col = await collection(orgId, admin.token, { title: 'Col' });
    const inCol = await space(orgId, admin.token, { title: 'In', parent: col.id });
    const other = await t.org();
    const foreign = await space(other.orgId, other.admin.token);
    const deleted = await space(orgId, admin.token, { title: 'Deleted' });
    await t.delete(`/v1/spaces/${deleted.id}`, admin.token);
    const move = (body: unknown) => t.post(`/v1/spaces/${a.id}/move`, admin.token, body);
    expectError(await move(before(inCol.id)), 400, INVALID_POSITION);
    expectError(await move(before(a.id)), 400, INVALID_POSITION);
    expectError(await move(before(UNKNOWN_ID)), 400, INVALID_POSITION);
    expectError(await move(before(foreign.id)), 400, INVALID_POSITION);
    expectError(await move(before(deleted.id)), 400, INVALID_POSITION);
    expectError(
      await move({ position: { after: { type: 'space', space: c.id }, before: { type: 'space', space: b.id } } }),
      400,
      INVALID_POSITION,
    );
    expectError(await move({ parent: col.id, ...before(b.id) }), 400, INVALID_POSITION);
    expect(await siblings(orgId, null)).toEqual([a.id, b.id, c.id, col.id]);
  });

  it('answers 404 for no matching space, and for a parent collection that is unknown or foreign (Errors table)', async () => {
    const { orgId, admin } = await t.org();
    const a = await space(orgId, admin.token);
    const other = await t.org();
    const foreignSpace = await space(other.orgId, other.admin.token);
    const foreignCol = await collection(other.orgId, other.admin.token, { title: 'Theirs' });
    expectError(await t.post(`/v1/spaces/${UNKNOWN_ID}/move`, admin.token, { parent: null }), 404, NO_SPACE);
    expectError(await t.post(`/v1/spaces/${foreignSpace.id}/move`, admin.token, { parent: null }), 404, NO_SPACE);
    expectError(await t.post(`/v1/spaces/${a.id}/move`, admin.token, { parent: foreignCol.id }), 404, NO_COLLECTION);
    expectError(await t.post(`/v1/spaces/${a.id}/move`, admin.token, { parent: UNKNOWN_ID }), 404, NO_COLLECTION);
  });

  it('refuses a move that would change nothing (Errors table), leaving updatedAt alone', async () => {
    const { orgId, admin } = await t.org();
    const a = await space(orgId, admin.token, { title: 'A' });
    const b = await space(orgId, admin.token, { title: 'B' });
    const col = await collection(orgId, admin.token, { title: 'Col' });
    const inCol = await space(orgId, admin.token, { title: 'In', parent: col.id });
    expectError(await t.post(`/v1/spaces/${a.id}/move`, admin.token, {}), 400, NO_UPDATE);
    expectError(await t.post(`/v1/spaces/${a.id}/move`, admin.token, { parent: null }), 400, NO_UPDATE);
    expectError(await t.post(`/v1/spaces/${a.id}/move`, admin.token, before(b.id)), 400, NO_UPDATE);
    expectError(await t.post(`/v1/spaces/${b.id}/move`, admin.token, after(a.id)), 400, NO_UPDATE);
    expectError(await t.post(`/v1/spaces/${inCol.id}/move`, admin.token, { parent: col.id }), 400, NO_UPDATE);
    expect((await t.get(`/v1/spaces/${a.id}`, admin.token)).body.updatedAt).toBe(a.updatedAt);
  });

  it('refuses bad input, and taking an in-collection space out of its collection', async () => {
    const { orgId, admin } = await t.org();
    const col = await collection(orgId, admin.token, { title: 'Col' });
    const s = await space(orgId, admin.token, { parent: col.id });
    await t.patch(`/v1/spaces/${s.id}`, admin.token, { visibility: 'in-collection' });
    expectError(
      await t.post(`/v1/spaces/${s.id}/move`, admin.token, { parent: null }),
      400,
      'Invalid body field "parent": a space visible "in-collection" must stay in a collection; change its visibility first.',
    );
    expectError(
      await t.post(`/v1/spaces/${s.id}/move`, admin.token, { position: { before: { type: 'space', space: 5 } } }),
      400,
      /^Invalid body field "position\.before"/,
    );
    expectError(
      await t.post(`/v1/spaces/${s.id}/move`, admin.token, { parent: 'x'.repeat(65) }),
      400,
      'Invalid body field "parent": must be an id (letters, digits, _ and -).',
    );
    expect((await t.get(`/v1/spaces/${s.id}`, admin.token)).body.parent).toBe(col.id);
  });

  it('refuses members below admin on the space or create where it goes (403), and outsiders (404)', async () => {
    const { orgId, admin, members } = await t.org(['create', 'read']);
    const [creator, reader] = members as [TestUser, TestUser];
    const col = await collection(orgId, admin.token, { title: 'Col' });
    const s = await space(orgId, admin.token, { parent: col.id });
    expectError(await t.post(`/v1/spaces/${s.id}/move`, creator.token, { parent: null }), 403, ADMIN_ON_SPACE);
    await setGrant(t.db, { resource_id: s.id, resource_kind: 'space', principal_id: reader.id, principal_kind: 'user', role: 'admin' });
    expectError(
      await t.post(`/v1/spaces/${s.id}/move`, reader.token, { parent: null }),
      403,
      'This needs the create role in the organization.',
    );
    const other = await collection(orgId, admin.token, { title: 'Other' });
    expectError(
      await t.post(`/v1/spaces/${s.id}/move`, reader.token, { parent: other.id }),
      403,
      'This needs the create role on the target collection.',
    );
    const stranger = await t.user();
    expectError(await t.post(`/v1/spaces/${s.id}/move`, stranger.token, { parent: null }), 404, NO_SPACE);
    expect((await t.get(`/v1/spaces/${s.id}`, admin.token)).body.parent).toBe(col.id);
  });
});

describe('POST /v1/spaces/{spaceId}/transfer', () => {
  it('transfers a space to the root of another organization', async () => {
    const { orgId, admin } = await t.org();
    const target = await t.org();
    await t.db.query("INSERT INTO org_members (org_id, user_id, role) VALUES ($1, $2, 'create')", [target.orgId, admin.id]);
    const col = await collection(orgId, admin.token, { title: 'Col' });
    const s = await space(orgId, admin.token, { title: 'Moving', parent: col.id });
    await setGrant(t.db, { resource_id: s.id, resource_kind: 'space', principal_id: admin.id, principal_kind: 'user', role: 'admin' });
    const existing = await space(target.orgId, target.admin.token, { title: 'Already there' });
    const res = await t.post(`/v1/spaces/${s.id}/transfer`, admin.token, { organization: target.orgId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'space',
      id: s.id,
      organization: target.orgId,
      permissions: { view: true, edit: true, admin: false },
    });
    expect(res.body.parent).toBeUndefined();
    expect(await siblings(target.orgId, null)).toEqual([existing.id, s.id]);
    expect((await t.get(`/v1/orgs/${orgId}/spaces`, admin.token)).body.count).toBe(0);
    expect(await t.db.query('SELECT * FROM grants WHERE resource_id = $1', [s.id])).toEqual([]);
  });

  it('answers 404 for no matching space or target organization (Errors table)', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(orgId, admin.token);
    const other = await t.org();
    const foreign = await space(other.orgId, other.admin.token);
    expectError(await t.post(`/v1/spaces/${UNKNOWN_ID}/transfer`, admin.token, { organization: orgId }), 404, NO_SPACE);
    expectError(await t.post(`/v1/spaces/${foreign.id}/transfer`, admin.token, { organization: orgId }), 404, NO_SPACE);
    expectError(await t.post(`/v1/spaces/${s.id}/transfer`, admin.token, { organization: other.orgId }), 404, NO_ORG);
    expectError(await t.post(`/v1/spaces/${s.id}/transfer`, admin.token, { organization: UNKNOWN_ID }), 404, NO_ORG);
  });

  it('refuses a transfer that would change nothing, and a space that cannot be moved (Errors table)', async () => {
    const { orgId, admin } = await t.org();
    const target = await t.org();
    await t.db.query("INSERT INTO org_members (org_id, user_id, role) VALUES ($1, $2, 'admin')", [target.orgId, admin.id]);
    const col = await collection(orgId, admin.token, { title: 'Col' });
    const s = await space(orgId, admin.token, { parent: col.id });
    expectError(
      await t.post(`/v1/spaces/${s.id}/transfer`, admin.token, { organization: orgId }),
      400,
      'The transfer would not result in any update: the space is already in this organization.',
    );
    await t.patch(`/v1/spaces/${s.id}`, admin.token, { visibility: 'in-collection' });
    const updatedAt = (await t.get(`/v1/spaces/${s.id}`, admin.token)).body.updatedAt;
    expectError(
      await t.post(`/v1/spaces/${s.id}/transfer`, admin.token, { organization: target.orgId }),
      400,
      'The space cannot be moved: it is visible "in-collection"; change its visibility first.',
    );
    expect((await t.get(`/v1/spaces/${s.id}`, admin.token)).body).toMatchObject({ organization: orgId, parent: col.id, updatedAt });
  });

  it('refuses bad input (400), members below admin or without create in the target (403), outsiders (404)', async () => {
    const { orgId, admin, members } = await t.org(['create']);
    const target = await t.org();
    await t.db.query("INSERT INTO org_members (org_id, user_id, role) VALUES ($1, $2, 'edit')", [target.orgId, admin.id]);
    const s = await space(orgId, admin.token);
    const url = `/v1/spaces/${s.id}/transfer`;
    expectError(await t.post(url, admin.token, { organization: 42 }), 400, /"organization"/);
    expectError(await t.post(url, admin.token, { organization: target.orgId, keepGrants: true }), 400, 'Unknown body field: "keepGrants".');
    expectError(await t.post(url, members[0]!.token, { organization: target.orgId }), 403, ADMIN_ON_SPACE);
    expectError(
      await t.post(url, admin.token, { organization: target.orgId }),
      403,
      'This needs the create role in the target organization.',
    );
    const stranger = await t.user();
    expectError(await t.post(url, stranger.token, { organization: orgId }), 404, NO_SPACE);
    expect((await t.get(url.replace('/transfer', ''), admin.token)).body.organization).toBe(orgId);
  });
});

describe('sibling order under a non-bytewise database collation', () => {
  // Fractional-index keys mix cases ("a0V", "a0k"); under a linguistic collation they sort
  // differently than in JavaScript, which once made a move pick a wrong neighbour and fail.
  it.runIf(testAdapter() === 'postgres')('moves correctly when positions use a linguistic collation', async () => {
    await t.db.query('ALTER TABLE spaces ALTER COLUMN position TYPE text COLLATE "en-x-icu"');
    await t.db.query('ALTER TABLE collections ALTER COLUMN position TYPE text COLLATE "en-x-icu"');
    try {
      const { orgId, admin } = await t.org();
      const [a, b, c, d, e] = [
        await space(orgId, admin.token),
        await space(orgId, admin.token),
        await space(orgId, admin.token),
        await space(orgId, admin.token),
        await space(orgId, admin.token),
      ];
      expect((await t.post(`/v1/spaces/${c!.id}/move`, admin.token, before(b!.id))).status).toBe(200);
      expect((await t.post(`/v1/spaces/${d!.id}/move`, admin.token, before(b!.id))).status).toBe(200);
      expect((await t.post(`/v1/spaces/${e!.id}/move`, admin.token, after(d!.id))).status).toBe(200);
      expect((await t.post(`/v1/spaces/${a!.id}/move`, admin.token, before(e!.id))).status).toBe(200);
      expect(await siblings(orgId, null)).toEqual([c!.id, d!.id, a!.id, e!.id, b!.id]);
    } finally {
      await t.db.query('ALTER TABLE spaces ALTER COLUMN position TYPE text COLLATE "C"');
      await t.db.query('ALTER TABLE collections ALTER COLUMN position TYPE text COLLATE "C"');
    }
  });
});

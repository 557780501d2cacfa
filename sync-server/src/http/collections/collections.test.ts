import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setGrant } from '../../store/grants';
import { NO_COLLECTION, NO_ORG, UNKNOWN_ID, expectError } from '../../testing/apiExpect';
import { type TestUser, TestServer } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

const ADMIN_ON_COLLECTION = 'This needs the admin role on the collection.';
const INVALID_POSITION = 'Invalid body field "position": invalid position space or collection provided.';
const NO_UPDATE = 'The operation would not result in any update.';

async function collection(orgId: string, token: string, body: Record<string, unknown>) {
  const res = await t.post(`/v1/orgs/${orgId}/collections`, token, body);
  expect(res.status).toBe(200);
  return res.body as { id: string; parent?: string };
}

async function space(orgId: string, token: string, body: Record<string, unknown>) {
  const res = await t.post(`/v1/orgs/${orgId}/spaces`, token, body);
  expect(res.status).toBe(201);
  return res.body as { id: string; updatedAt: string };
}

/** Ids of the spaces and collections under a parent, in their sibling order. */
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

describe('GET /v1/collections/{collectionId}', () => {
  it('answers a collection with permissions for the caller', async () => {
    const { orgId, admin, members } = await t.org(['read', null]);
    const col = await collection(orgId, admin.token, { title: 'Guides', description: 'How-tos' });
    const res = await t.get(`/v1/collections/${col.id}`, members[0]!.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'collection',
      id: col.id,
      title: 'Guides',
      description: 'How-tos',
      organization: orgId,
      defaultLevel: 'inherit',
      urls: { location: `http://quire.test/v1/collections/${col.id}`, app: `http://quire.test/app/collections/${col.id}` },
      permissions: { view: true, admin: false, viewInviteLinks: false, create: false },
    });
    // A guest sees it through a grant on it.
    await setGrant(t.db, {
      resource_id: col.id,
      resource_kind: 'collection',
      principal_id: members[1]!.id,
      principal_kind: 'user',
      role: 'create',
    });
    expect((await t.get(`/v1/collections/${col.id}`, members[1]!.token)).body.permissions).toMatchObject({
      view: true,
      create: true,
      admin: false,
    });
  });

  it('refuses a bad id (400); guests without a grant, outsiders and unknown ids get 404', async () => {
    const { orgId, admin, members } = await t.org([null]);
    const col = await collection(orgId, admin.token, { title: 'Guides' });
    expectError(await t.get('/v1/collections/%27%3B--', admin.token), 400, /^Invalid path parameter field "collectionId"/);
    expectError(await t.get(`/v1/collections/${col.id}`, members[0]!.token), 404, NO_COLLECTION);
    const stranger = await t.user();
    expectError(await t.get(`/v1/collections/${col.id}`, stranger.token), 404, NO_COLLECTION);
    expectError(await t.get(`/v1/collections/${UNKNOWN_ID}`, admin.token), 404, NO_COLLECTION);
  });
});

describe('DELETE /v1/collections/{collectionId}', () => {
  it('deletes a collection and its sub-collections; spaces inside go to the trash, restorable at the root', async () => {
    const { orgId, admin } = await t.org();
    const top = await collection(orgId, admin.token, { title: 'Top' });
    const sub = await collection(orgId, admin.token, { title: 'Sub', parent: top.id });
    const s = await space(orgId, admin.token, { title: 'Inside', parent: sub.id });
    await t.patch(`/v1/spaces/${s.id}`, admin.token, { visibility: 'in-collection' });
    const first = await t.delete(`/v1/collections/${top.id}`, admin.token);
    expect(first.status).toBe(204);
    expect(first.body).toBeUndefined();
    expectError(await t.get(`/v1/collections/${top.id}`, admin.token), 404, NO_COLLECTION);
    expectError(await t.get(`/v1/collections/${sub.id}`, admin.token), 404, NO_COLLECTION);
    expect((await t.get(`/v1/spaces/${s.id}`, admin.token)).status).toBe(404);
    const restored = await t.post(`/v1/spaces/${s.id}/restore`, admin.token);
    expect(restored.status).toBe(200);
    expect(restored.body.parent).toBeUndefined();
    expect(restored.body.visibility).toBe('private');
    expect((await t.delete(`/v1/collections/${top.id}`, admin.token)).status).toBe(204);
  });

  it('refuses a bad id (400) and members without admin on it (403); outsiders get 204 and change nothing', async () => {
    const { orgId, admin, members } = await t.org(['create']);
    const col = await collection(orgId, admin.token, { title: 'Keep' });
    expectError(await t.delete('/v1/collections/%E2%80%AE', admin.token), 400, /^Invalid path parameter field "collectionId"/);
    expectError(await t.delete(`/v1/collections/${col.id}`, members[0]!.token), 403, ADMIN_ON_COLLECTION);
    const stranger = await t.user();
    expect((await t.delete(`/v1/collections/${col.id}`, stranger.token)).status).toBe(204);
    expect((await t.get(`/v1/collections/${col.id}`, admin.token)).status).toBe(200);
  });
});

describe('PATCH /v1/collections/{collectionId}', () => {
  it('changes title, description and defaultLevel; the level reaches the spaces inside', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const col = await collection(orgId, admin.token, { title: 'Old' });
    const s = await space(orgId, admin.token, { title: 'Inside', parent: col.id });
    const res = await t.patch(`/v1/collections/${col.id}`, admin.token, {
      title: 'New',
      description: 'Now described',
      defaultLevel: 'edit',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: col.id, title: 'New', description: 'Now described', defaultLevel: 'edit' });
    expect((await t.get(`/v1/spaces/${s.id}`, members[0]!.token)).body.permissions).toMatchObject({ edit: true, review: false });
    const back = await t.patch(`/v1/collections/${col.id}`, admin.token, { defaultLevel: 'inherit' });
    expect(back.body).toMatchObject({ title: 'New', defaultLevel: 'inherit' });
    expect((await t.get(`/v1/spaces/${s.id}`, members[0]!.token)).body.permissions.edit).toBe(false);
    // null: no default access at all, as the public client means it; members need a grant
    const none = await t.patch(`/v1/collections/${col.id}`, admin.token, { defaultLevel: null });
    expect(none.status).toBe(200);
    expect(none.body.defaultLevel).toBeNull();
    expect((await t.get(`/v1/collections/${col.id}`, admin.token)).body.defaultLevel).toBeNull();
    expect((await t.get(`/v1/spaces/${s.id}`, members[0]!.token)).status).toBe(404);
    expect((await t.get(`/v1/spaces/${s.id}`, admin.token)).status).toBe(200);
  });

  it('refuses bad input (400), members without admin on it (403), outsiders and unknown ids (404)', async () => {
    const { orgId, admin, members } = await t.org(['create']);
    const col = await collection(orgId, admin.token, { title: 'Keep' });
    const url = `/v1/collections/${col.id}`;
    expectError(await t.patch(url, admin.token, {}), 400, 'Invalid body: must set at least one field.');
    expectError(await t.patch(url, admin.token, { defaultLevel: 'owner' }), 400, /^Invalid body field "defaultLevel"/);
    expectError(
      await t.patch(url, admin.token, { title: 'x'.repeat(257) }),
      400,
      'Invalid body field "title": Too big: expected string to have <=256 characters.',
    );
    expectError(await t.patch(url, members[0]!.token, { title: 'Nope' }), 403, ADMIN_ON_COLLECTION);
    const stranger = await t.user();
    expectError(await t.patch(url, stranger.token, { title: 'Nope' }), 404, NO_COLLECTION);
    expectError(await t.patch(`/v1/collections/${UNKNOWN_ID}`, admin.token, { title: 'Nope' }), 404, NO_COLLECTION);
    expect((await t.get(url, admin.token)).body.title).toBe('Keep');
  });
});

describe('GET /v1/collections/{collectionId}/spaces', () => {
  it('lists the spaces directly in the collection; guests see their granted ones', async () => {
    const { orgId, admin, members } = await t.org(['read', null]);
    const col = await collection(orgId, admin.token, { title: 'C' });
    const sub = await collection(orgId, admin.token, { title: 'Sub', parent: col.id });
    const a = await space(orgId, admin.token, { title: 'A', parent: col.id });
    const b = await space(orgId, admin.token, { title: 'B', parent: col.id });
    await space(orgId, admin.token, { title: 'Deeper', parent: sub.id });
    await space(orgId, admin.token, { title: 'Root' });
    const list = await t.get(`/v1/collections/${col.id}/spaces`, members[0]!.token);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    expect(list.body.items.map((s: { id: string }) => s.id)).toEqual([a.id, b.id]);
    await setGrant(t.db, { resource_id: b.id, resource_kind: 'space', principal_id: members[1]!.id, principal_kind: 'user', role: 'read' });
    await setGrant(t.db, {
      resource_id: col.id,
      resource_kind: 'collection',
      principal_id: members[1]!.id,
      principal_kind: 'user',
      role: 'read',
    });
    const asGuest = await t.get(`/v1/collections/${col.id}/spaces`, members[1]!.token);
    expect(asGuest.body.items.map((s: { id: string }) => s.id)).toEqual([a.id, b.id]);
  });

  it('refuses bad input (400); guests without a grant, outsiders and unknown ids get 404', async () => {
    const { orgId, admin, members } = await t.org([null]);
    const col = await collection(orgId, admin.token, { title: 'C' });
    expectError(
      await t.get(`/v1/collections/${col.id}/spaces?limit=-1`, admin.token),
      400,
      'Invalid query parameter field "limit": must be a whole number from 1 to 1000.',
    );
    expectError(await t.get(`/v1/collections/${col.id}/spaces`, members[0]!.token), 404, NO_COLLECTION);
    const stranger = await t.user();
    expectError(await t.get(`/v1/collections/${col.id}/spaces`, stranger.token), 404, NO_COLLECTION);
    expectError(await t.get('/v1/collections/unknown/spaces', admin.token), 404, NO_COLLECTION);
  });
});

describe('POST /v1/collections/{collectionId}/move', () => {
  it('moves a collection into another one, before and after siblings, and back to the root', async () => {
    const { orgId, admin } = await t.org();
    const a = await collection(orgId, admin.token, { title: 'A' });
    const b = await collection(orgId, admin.token, { title: 'B' });
    const s = await space(orgId, admin.token, { title: 'S' });
    const c = await collection(orgId, admin.token, { title: 'C' });
    expect(await siblings(orgId, null)).toEqual([a.id, b.id, s.id, c.id]);

    const before = await t.post(`/v1/collections/${c.id}/move`, admin.token, {
      position: { before: { type: 'collection', collection: b.id } },
    });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ object: 'collection', id: c.id });
    expect(await siblings(orgId, null)).toEqual([a.id, c.id, b.id, s.id]);

    await t.post(`/v1/collections/${a.id}/move`, admin.token, { position: { after: { type: 'space', space: s.id } } });
    expect(await siblings(orgId, null)).toEqual([c.id, b.id, s.id, a.id]);

    await t.post(`/v1/collections/${a.id}/move`, admin.token, {
      position: { after: { type: 'collection', collection: c.id }, before: { type: 'collection', collection: b.id } },
    });
    expect(await siblings(orgId, null)).toEqual([c.id, a.id, b.id, s.id]);

    const into = await t.post(`/v1/collections/${c.id}/move`, admin.token, { parent: b.id });
    expect(into.body.parent).toBe(b.id);
    expect(await siblings(orgId, b.id)).toEqual([c.id]);
    const out = await t.post(`/v1/collections/${c.id}/move`, admin.token, {
      parent: null,
      position: { before: { type: 'collection', collection: a.id } },
    });
    expect(out.body.parent).toBeUndefined();
    expect(await siblings(orgId, null)).toEqual([c.id, a.id, b.id, s.id]);
  });

  it('refuses an invalid position (Errors table)', async () => {
    const { orgId, admin } = await t.org();
    const a = await collection(orgId, admin.token, { title: 'A' });
    const b = await collection(orgId, admin.token, { title: 'B' });
    const inner = await collection(orgId, admin.token, { title: 'Inner', parent: b.id });
    const other = await t.org();
    const foreign = await collection(other.orgId, other.admin.token, { title: 'Theirs' });
    const move = (position: unknown) => t.post(`/v1/collections/${a.id}/move`, admin.token, { position });
    expectError(await move({ before: { type: 'collection', collection: inner.id } }), 400, INVALID_POSITION);
    expectError(await move({ before: { type: 'collection', collection: a.id } }), 400, INVALID_POSITION);
    expectError(await move({ before: { type: 'space', space: UNKNOWN_ID } }), 400, INVALID_POSITION);
    expectError(await move({ after: { type: 'collection', collection: foreign.id } }), 400, INVALID_POSITION);
    // `after` must come before `before`.
    const c = await collection(orgId, admin.token, { title: 'C' });
    expectError(
      await move({ after: { type: 'collection', collection: c.id }, before: { type: 'collection', collection: b.id } }),
      400,
      INVALID_POSITION,
    );
    expectError(await move({ before: { type: 'folder', folder: b.id } }), 400, 'Invalid body field "position.before": Invalid input.');
    expect(await siblings(orgId, null)).toEqual([a.id, b.id, c.id]);
  });

  it('answers 404 for no matching collection: unknown, invisible, foreign parent (Errors table)', async () => {
    const { orgId, admin } = await t.org();
    const a = await collection(orgId, admin.token, { title: 'A' });
    const other = await t.org();
    const foreign = await collection(other.orgId, other.admin.token, { title: 'Theirs' });
    expectError(await t.post(`/v1/collections/${UNKNOWN_ID}/move`, admin.token, { parent: null }), 404, NO_COLLECTION);
    expectError(await t.post(`/v1/collections/${foreign.id}/move`, admin.token, { parent: a.id }), 404, NO_COLLECTION);
    expectError(await t.post(`/v1/collections/${a.id}/move`, admin.token, { parent: foreign.id }), 404, NO_COLLECTION);
    expectError(await t.post(`/v1/collections/${a.id}/move`, admin.token, { parent: UNKNOWN_ID }), 404, NO_COLLECTION);
    expect((await t.get(`/v1/collections/${a.id}`, admin.token)).body.parent).toBeUndefined();
  });

  it('refuses a move that would change nothing (Errors table)', async () => {
    const { orgId, admin } = await t.org();
    const a = await collection(orgId, admin.token, { title: 'A' });
    const b = await collection(orgId, admin.token, { title: 'B' });
    const sub = await collection(orgId, admin.token, { title: 'Sub', parent: a.id });
    expectError(await t.post(`/v1/collections/${a.id}/move`, admin.token, {}), 400, NO_UPDATE);
    expectError(await t.post(`/v1/collections/${a.id}/move`, admin.token, { parent: null }), 400, NO_UPDATE);
    expectError(await t.post(`/v1/collections/${sub.id}/move`, admin.token, { parent: a.id }), 400, NO_UPDATE);
    expectError(
      await t.post(`/v1/collections/${a.id}/move`, admin.token, { position: { before: { type: 'collection', collection: b.id } } }),
      400,
      NO_UPDATE,
    );
    expectError(
      await t.post(`/v1/collections/${b.id}/move`, admin.token, { position: { after: { type: 'collection', collection: a.id } } }),
      400,
      NO_UPDATE,
    );
  });

  it('refuses a move into itself or a descendant, and bad input', async () => {
    const { orgId, admin } = await t.org();
    const a = await collection(orgId, admin.token, { title: 'A' });
    const sub = await collection(orgId, admin.token, { title: 'Sub', parent: a.id });
    const msg = 'Invalid body field "parent": a collection cannot be moved into itself or one of its descendants.';
    expectError(await t.post(`/v1/collections/${a.id}/move`, admin.token, { parent: a.id }), 400, msg);
    expectError(await t.post(`/v1/collections/${a.id}/move`, admin.token, { parent: sub.id }), 400, msg);
    expectError(
      await t.post(`/v1/collections/${a.id}/move`, admin.token, { parent: 'no way' }),
      400,
      'Invalid body field "parent": must be an id (letters, digits, _ and -).',
    );
    expectError(await t.post(`/v1/collections/${a.id}/move`, admin.token, { parent: null, index: 1 }), 400, 'Unknown body field: "index".');
  });

  it('refuses members without admin on it or create where it goes (403), and outsiders (404)', async () => {
    const { orgId, admin, members } = await t.org(['create', 'read']);
    const [creator, reader] = members as [TestUser, TestUser];
    const a = await collection(orgId, admin.token, { title: 'A' });
    const target = await collection(orgId, admin.token, { title: 'Target' });
    const sub = await collection(orgId, admin.token, { title: 'Sub', parent: a.id });
    expectError(await t.post(`/v1/collections/${a.id}/move`, creator.token, { parent: target.id }), 403, ADMIN_ON_COLLECTION);
    // Admin on the collection by a grant, but only a reader in the organization: cannot place it at the root.
    await setGrant(t.db, {
      resource_id: sub.id,
      resource_kind: 'collection',
      principal_id: reader.id,
      principal_kind: 'user',
      role: 'admin',
    });
    expectError(
      await t.post(`/v1/collections/${sub.id}/move`, reader.token, { parent: null }),
      403,
      'This needs the create role in the organization.',
    );
    expectError(
      await t.post(`/v1/collections/${sub.id}/move`, reader.token, { parent: target.id }),
      403,
      'This needs the create role on the target collection.',
    );
    const stranger = await t.user();
    expectError(await t.post(`/v1/collections/${a.id}/move`, stranger.token, { parent: target.id }), 404, NO_COLLECTION);
    expect((await t.get(`/v1/collections/${sub.id}`, admin.token)).body.parent).toBe(a.id);
  });
});

describe('POST /v1/collections/{collectionId}/transfer', () => {
  it('transfers a top-level collection with what it holds to another organization', async () => {
    const { orgId, admin } = await t.org();
    const target = await t.org();
    await t.db.query("INSERT INTO org_members (org_id, user_id, role) VALUES ($1, $2, 'create')", [target.orgId, admin.id]);
    const col = await collection(orgId, admin.token, { title: 'Moving' });
    const sub = await collection(orgId, admin.token, { title: 'Sub', parent: col.id });
    const s = await space(orgId, admin.token, { title: 'Inside', parent: sub.id });
    await setGrant(t.db, { resource_id: s.id, resource_kind: 'space', principal_id: admin.id, principal_kind: 'user', role: 'admin' });
    const res = await t.post(`/v1/collections/${col.id}/transfer`, admin.token, { organization: target.orgId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'collection',
      id: col.id,
      organization: target.orgId,
      permissions: { view: true, create: true },
    });
    expect((await t.get(`/v1/collections/${sub.id}`, admin.token)).body.organization).toBe(target.orgId);
    expect((await t.get(`/v1/spaces/${s.id}`, target.admin.token)).body).toMatchObject({ organization: target.orgId, parent: sub.id });
    expect((await t.get(`/v1/orgs/${orgId}/collections`, admin.token)).body.count).toBe(0);
    // Grants named people of the old organization; they do not travel.
    expect(await t.db.query('SELECT * FROM grants WHERE resource_id = $1', [s.id])).toEqual([]);
    expect(await siblings(target.orgId, null)).toEqual([col.id]);
  });

  it('answers 404 for no matching collection or target organization (Errors table)', async () => {
    const { orgId, admin } = await t.org();
    const col = await collection(orgId, admin.token, { title: 'C' });
    const other = await t.org();
    const foreign = await collection(other.orgId, other.admin.token, { title: 'Theirs' });
    expectError(await t.post(`/v1/collections/${UNKNOWN_ID}/transfer`, admin.token, { organization: orgId }), 404, NO_COLLECTION);
    expectError(await t.post(`/v1/collections/${foreign.id}/transfer`, admin.token, { organization: orgId }), 404, NO_COLLECTION);
    expectError(await t.post(`/v1/collections/${col.id}/transfer`, admin.token, { organization: other.orgId }), 404, NO_ORG);
    expectError(await t.post(`/v1/collections/${col.id}/transfer`, admin.token, { organization: UNKNOWN_ID }), 404, NO_ORG);
    expect((await t.get(`/v1/collections/${col.id}`, admin.token)).body.organization).toBe(orgId);
  });

  it('refuses a transfer that would change nothing, and one of a nested collection (Errors table)', async () => {
    const { orgId, admin } = await t.org();
    const target = await t.org();
    await t.db.query("INSERT INTO org_members (org_id, user_id, role) VALUES ($1, $2, 'admin')", [target.orgId, admin.id]);
    const col = await collection(orgId, admin.token, { title: 'C' });
    const sub = await collection(orgId, admin.token, { title: 'Sub', parent: col.id });
    expectError(
      await t.post(`/v1/collections/${col.id}/transfer`, admin.token, { organization: orgId }),
      400,
      'The transfer would not result in any update: the collection is already in this organization.',
    );
    expectError(
      await t.post(`/v1/collections/${sub.id}/transfer`, admin.token, { organization: target.orgId }),
      400,
      'The collection cannot be moved: move it to the top level of its organization first.',
    );
    expect((await t.get(`/v1/collections/${sub.id}`, admin.token)).body).toMatchObject({ organization: orgId, parent: col.id });
  });

  it('refuses bad input (400), members without admin on it or create in the target (403), outsiders (404)', async () => {
    const { orgId, admin, members } = await t.org(['create']);
    const target = await t.org();
    await t.db.query("INSERT INTO org_members (org_id, user_id, role) VALUES ($1, $2, 'edit')", [target.orgId, admin.id]);
    const col = await collection(orgId, admin.token, { title: 'C' });
    const url = `/v1/collections/${col.id}/transfer`;
    expectError(await t.post(url, admin.token, {}), 400, 'Missing body field "organization".');
    expectError(
      await t.post(url, admin.token, { organization: '../../etc' }),
      400,
      'Invalid body field "organization": must be an id (letters, digits, _ and -).',
    );
    expectError(await t.post(url, members[0]!.token, { organization: target.orgId }), 403, ADMIN_ON_COLLECTION);
    expectError(
      await t.post(url, admin.token, { organization: target.orgId }),
      403,
      'This needs the create role in the target organization.',
    );
    const stranger = await t.user();
    expectError(await t.post(url, stranger.token, { organization: target.orgId }), 404, NO_COLLECTION);
    expect((await t.get(`/v1/collections/${col.id}`, admin.token)).body.organization).toBe(orgId);
  });
});

import { jwtVerify } from 'jose';
import { serverSecret } from '../../core/security/secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setGrant } from '../../store/grants';
import { createToken } from '../../store/tokens';
import { ensureUser } from '../../store/users';
import { NO_COLLECTION, NO_MEMBER, NO_ORG, UNKNOWN_ID, expectError } from '../../testing/apiExpect';
import { type TestUser, TestServer } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

let domainCounter = 0;
/** A user whose email is at `domain` (a fresh one per call unless given). */
async function userAt(domain = `acme${++domainCounter}.test`): Promise<TestUser & { domain: string }> {
  const email = `ada-${Math.random().toString(36).slice(2, 8)}@${domain}`;
  const u = await ensureUser(t.db, email, 'Ada');
  return { id: u.id, email, token: await createToken(t.db, u.id), domain };
}

async function space(orgId: string, token: string, body: Record<string, unknown> = { title: 'Docs' }) {
  const res = await t.post(`/v1/orgs/${orgId}/spaces`, token, body);
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

describe('GET /v1/orgs, POST /v1/orgs', () => {
  it('creates an organization whose creator is admin, and lists it', async () => {
    const u = await t.user();
    const created = await t.post('/v1/orgs', u.token, { title: 'Acme', emailDomains: ['Acme.TEST'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'organization',
      title: 'Acme',
      emailDomains: ['acme.test'],
      permissions: { view: true, admin: true, createContent: true },
      urls: { location: `http://quire.test/v1/orgs/${created.body.id}` },
    });
    expect(created.body.id).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(new Date(created.body.createdAt).toISOString()).toBe(created.body.createdAt);
    const list = await t.get('/v1/orgs', u.token);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [created.body], count: 1 });
  });

  it('lists only the organizations the caller is an enabled member of, guests included', async () => {
    const { orgId, members } = await t.org([null, 'read']);
    const other = await t.org();
    const [guest, reader] = members as [TestUser, TestUser];
    await t.db.query('UPDATE org_members SET disabled = true WHERE org_id = $1 AND user_id = $2', [orgId, reader.id]);
    const asGuest = await t.get('/v1/orgs', guest.token);
    expect(asGuest.body.items.map((o: { id: string }) => o.id)).toEqual([orgId]);
    expect(asGuest.body.items[0].permissions).toMatchObject({ view: true, admin: false, listMembers: false });
    const asDisabled = await t.get('/v1/orgs', reader.token);
    expect(asDisabled.body).toEqual({ items: [], count: 0 });
    expect(asDisabled.body.items.map((o: { id: string }) => o.id)).not.toContain(other.orgId);
  });

  it('refuses a bad body on create', async () => {
    const u = await t.user();
    expectError(await t.post('/v1/orgs', u.token, {}), 400, 'Missing body field "title".');
    expectError(await t.post('/v1/orgs', u.token, { title: '  ' }), 400, 'Invalid body field "title": must not be blank.');
    expectError(
      await t.post('/v1/orgs', u.token, { title: 'A', emailDomains: ['not a domain'] }),
      400,
      'Invalid body field "emailDomains.0": must be a domain name such as example.com.',
    );
    expectError(await t.post('/v1/orgs', u.token, { title: 'A', plan: 'pro' }), 400, 'Unknown body field: "plan".');
    expect((await t.get('/v1/orgs', u.token)).body.count).toBe(0);
  });

  it('refuses a bad limit on the list and a request without a valid token', async () => {
    const u = await t.user();
    expectError(await t.get('/v1/orgs?limit=0', u.token), 400, 'Invalid query parameter field "limit": must be at least 1.');
    expectError(await t.get('/v1/orgs'), 401, 'A valid API token is required: send Authorization: Bearer <token>.');
    expectError(await t.get('/v1/orgs', 'qt_not-a-token'), 401, 'The API token is not valid (unknown or revoked).');
  });
});

describe('GET /v1/orgs/{organizationId}', () => {
  it('answers members, guests included, with permissions for their role', async () => {
    const { orgId, admin, members } = await t.org(['edit', null]);
    const asAdmin = await t.get(`/v1/orgs/${orgId}`, admin.token);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toMatchObject({ object: 'organization', id: orgId, plan: 'self_hosted', permissions: { admin: true } });
    const asEditor = await t.get(`/v1/orgs/${orgId}`, members[0]!.token);
    expect(asEditor.body.permissions).toMatchObject({ view: true, admin: false, createContent: false, listMembers: true });
    const asGuest = await t.get(`/v1/orgs/${orgId}`, members[1]!.token);
    expect(asGuest.status).toBe(200);
    expect(asGuest.body.permissions).toMatchObject({ view: true, admin: false, listMembers: false, listTeams: false });
  });

  it('answers 404 for an organization the caller is not in, as for an unknown id', async () => {
    const { orgId } = await t.org();
    const stranger = await t.user();
    const foreign = await t.get(`/v1/orgs/${orgId}`, stranger.token);
    const unknown = await t.get(`/v1/orgs/${UNKNOWN_ID}`, stranger.token);
    expectError(foreign, 404, NO_ORG);
    expect(foreign.body).toEqual(unknown.body);
  });

  it('refuses an id of the wrong shape', async () => {
    const u = await t.user();
    expectError(
      await t.get('/v1/orgs/a%20b', u.token),
      400,
      'Invalid path parameter field "organizationId": must be an id (letters, digits, _ and -).',
    );
  });
});

describe('PATCH /v1/orgs/{organizationId}', () => {
  it('lets admins change every field', async () => {
    const { orgId, admin } = await t.org();
    const ok = await t.patch(`/v1/orgs/${orgId}`, admin.token, {
      title: 'Renamed',
      emailDomains: ['Example.com'],
      hostname: 'docs.renamed.test',
      defaultRole: 'comment',
      logo: 'https://cdn.renamed.test/logo.png',
      sso: true,
      ai: true,
      inviteLinks: true,
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [admin.id] }] },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      title: 'Renamed',
      emailDomains: ['example.com'],
      hostname: 'docs.renamed.test',
      defaultRole: 'comment',
      sso: true,
      ai: true,
      inviteLinks: true,
      urls: { logo: 'https://cdn.renamed.test/logo.png' },
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [admin.id] }] },
    });
    expect((await t.get(`/v1/orgs/${orgId}`, admin.token)).body).toEqual(ok.body);
    const cleared = await t.patch(`/v1/orgs/${orgId}`, admin.token, {
      hostname: null,
      logo: null,
      defaultRole: null,
      defaultContent: null,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.hostname).toBeUndefined();
    expect(cleared.body.urls.logo).toBeUndefined();
    expect(cleared.body.defaultRole).toBeNull();
  });

  it('refuses non-admins with 403 and outsiders with 404, changing nothing', async () => {
    const { orgId, admin, members } = await t.org(['create', null]);
    expectError(
      await t.patch(`/v1/orgs/${orgId}`, members[0]!.token, { title: 'Nope' }),
      403,
      'This needs the admin role in the organization.',
    );
    expectError(
      await t.patch(`/v1/orgs/${orgId}`, members[1]!.token, { title: 'Nope' }),
      403,
      'This needs the admin role in the organization.',
    );
    const stranger = await t.user();
    expectError(await t.patch(`/v1/orgs/${orgId}`, stranger.token, { title: 'Nope' }), 404, NO_ORG);
    expect((await t.get(`/v1/orgs/${orgId}`, admin.token)).body.title).not.toBe('Nope');
  });

  it('refuses bad input: unknown fields, empty patch, bad hostname, a hostname in use', async () => {
    const { orgId, admin } = await t.org();
    const before = (await t.get(`/v1/orgs/${orgId}`, admin.token)).body;
    expectError(await t.patch(`/v1/orgs/${orgId}`, admin.token, { title: 'Ok', color: 'red' }), 400, 'Unknown body field: "color".');
    expectError(await t.patch(`/v1/orgs/${orgId}`, admin.token, {}), 400, 'Invalid body: must set at least one field.');
    expectError(
      await t.patch(`/v1/orgs/${orgId}`, admin.token, { hostname: 'docs_site' }),
      400,
      'Invalid body field "hostname": must be a subdomain such as acme (3 to 32 letters, digits and -) or a hostname such as docs.example.com.',
    );
    expectError(await t.patch(`/v1/orgs/${orgId}`, admin.token, { logo: 'javascript:alert(1)' }), 400, /^Invalid body field "logo"/);
    const outsider = await t.user();
    expectError(
      await t.patch(`/v1/orgs/${orgId}`, admin.token, {
        mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [outsider.id] }] },
      }),
      404,
      NO_MEMBER,
    );
    const other = await t.org();
    expect((await t.patch(`/v1/orgs/${other.orgId}`, other.admin.token, { hostname: 'docs.taken.test' })).status).toBe(200);
    expectError(
      await t.patch(`/v1/orgs/${orgId}`, admin.token, { hostname: 'docs.taken.test', title: 'Changed' }),
      400,
      'Invalid body field "hostname": already used by another organization.',
    );
    expect((await t.get(`/v1/orgs/${orgId}`, admin.token)).body).toEqual(before);
  });

  it('refuses a default content that is not a site of the organization (Errors table)', async () => {
    const { orgId, admin } = await t.org();
    expectError(
      await t.patch(`/v1/orgs/${orgId}`, admin.token, { defaultContent: { type: 'site', site: UNKNOWN_ID } }),
      400,
      'Invalid body field "defaultContent.site": invalid default content space or collection provided.',
    );
    expectError(
      await t.patch(`/v1/orgs/${orgId}`, admin.token, { defaultContent: { type: 'space', site: UNKNOWN_ID } }),
      400,
      'Invalid body field "defaultContent.type": Invalid input: expected "site".',
    );
  });
});

describe('DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}', () => {
  it('deletes an invite link, and answers 204 again when it is gone', async () => {
    const { orgId, admin } = await t.org();
    await t.db.query("INSERT INTO link_invites (id, org_id, role) VALUES ('invite_1234567890abcdefgh', $1, 'read')", [orgId]);
    const first = await t.delete(`/v1/orgs/${orgId}/link-invites/invite_1234567890abcdefgh`, admin.token);
    expect(first.status).toBe(204);
    expect(first.body).toBeUndefined();
    expect(await t.db.query('SELECT id FROM link_invites WHERE org_id = $1', [orgId])).toEqual([]);
    expect((await t.delete(`/v1/orgs/${orgId}/link-invites/invite_1234567890abcdefgh`, admin.token)).status).toBe(204);
  });

  it('refuses non-admins (403) and bad ids (400), and answers outsiders 204 as for an unknown invite, deleting nothing', async () => {
    const { orgId, members } = await t.org(['create']);
    await t.db.query("INSERT INTO link_invites (id, org_id, role) VALUES ('invite_keep_1234567890abc', $1, 'read')", [orgId]);
    expectError(
      await t.delete(`/v1/orgs/${orgId}/link-invites/invite_keep_1234567890abc`, members[0]!.token),
      403,
      'This needs the admin role in the organization.',
    );
    const stranger = await t.user();
    expect((await t.delete(`/v1/orgs/${orgId}/link-invites/invite_keep_1234567890abc`, stranger.token)).status).toBe(204);
    expectError(
      await t.delete(`/v1/orgs/${orgId}/link-invites/bad%3Bid`, members[0]!.token),
      400,
      /^Invalid path parameter field "inviteId"/,
    );
    expect(await t.db.query('SELECT id FROM link_invites WHERE org_id = $1', [orgId])).toHaveLength(1);
  });
});

describe('POST /v1/orgs/{organizationId}/join', () => {
  it('joins through a verified email domain with the default role, and is idempotent', async () => {
    const u = await userAt();
    const { orgId, admin } = await t.org();
    await t.patch(`/v1/orgs/${orgId}`, admin.token, { emailDomains: [u.domain], defaultRole: 'comment' });
    const joined = await t.post(`/v1/orgs/${orgId}/join`, u.token);
    expect(joined.status).toBe(204);
    expect(joined.body).toBeUndefined();
    const member = await t.get(`/v1/orgs/${orgId}/members/${u.id}`, admin.token);
    expect(member.body.role).toBe('comment');
    expect((await t.post(`/v1/orgs/${orgId}/join`, u.token)).status).toBe(204);
    expect((await t.get(`/v1/orgs/${orgId}`, u.token)).status).toBe(200);
  });

  it("refuses a caller whose email domain is not the organization's, or not verified, as if the organization did not exist", async () => {
    const u = await userAt();
    const { orgId, admin } = await t.org();
    await t.patch(`/v1/orgs/${orgId}`, admin.token, { emailDomains: ['elsewhere.test'] });
    // The very answer an unknown id gets: a refusal must not confirm that the organization exists.
    const unknown = await t.post(`/v1/orgs/${UNKNOWN_ID}/join`, u.token);
    expectError(unknown, 404, NO_ORG);
    const foreign = await t.post(`/v1/orgs/${orgId}/join`, u.token);
    expect({ status: foreign.status, body: foreign.body }).toEqual({ status: unknown.status, body: unknown.body });
    const unverified = await userAt('unverified.test');
    await t.db.query('UPDATE users SET email_verified = false WHERE id = $1', [unverified.id]);
    await t.patch(`/v1/orgs/${orgId}`, admin.token, { emailDomains: ['unverified.test'] });
    expectError(await t.post(`/v1/orgs/${orgId}/join`, unverified.token), 404, NO_ORG);
    expectError(await t.get(`/v1/orgs/${orgId}`, u.token), 404, NO_ORG);
    expect((await t.get(`/v1/orgs/${orgId}/members?limit=1000`, admin.token)).body.count).toBe(1);
  });

  it('answers 404 for an unknown organization and 400 for a bad id (Errors table)', async () => {
    const u = await userAt();
    expectError(await t.post(`/v1/orgs/${UNKNOWN_ID}/join`, u.token), 404, NO_ORG);
    expectError(await t.post('/v1/orgs/%E2%9C%93/join', u.token), 400, /^Invalid path parameter field "organizationId"/);
  });
});

describe('POST /v1/orgs/{organizationId}/invites', () => {
  it('adds members by email with the role given, creating users as needed', async () => {
    const { orgId, admin } = await t.org();
    const existing = await t.user();
    const res = await t.post(`/v1/orgs/${orgId}/invites`, admin.token, {
      emails: [existing.email, 'New.Person@Invited.test'],
      role: 'edit',
    });
    expect(res.status).toBe(200);
    expect(res.body.invited).toBe(2);
    expect(res.body.users).toHaveLength(2);
    expect(res.body.users[0]).toBe(existing.id);
    const added = await t.get(`/v1/orgs/${orgId}/members/${res.body.users[1]}`, admin.token);
    expect(added.body).toMatchObject({ role: 'edit', user: { email: 'new.person@invited.test' } });
    const guests = await t.post(`/v1/orgs/${orgId}/invites`, admin.token, { emails: ['guest@invited.test'], role: null });
    expect((await t.get(`/v1/orgs/${orgId}/members/${guests.body.users[0]}`, admin.token)).body.role).toBeNull();
    // An address may carry its own role, over the default one.
    const mixed = await t.post(`/v1/orgs/${orgId}/invites`, admin.token, {
      emails: ['plain@invited.test', { email: 'reviewer@invited.test', role: 'review' }],
      role: 'comment',
    });
    const roles = await Promise.all(
      mixed.body.users.map(async (id: string) => (await t.get(`/v1/orgs/${orgId}/members/${id}`, admin.token)).body.role),
    );
    expect(roles).toEqual(['comment', 'review']);
    // Inviting a member again leaves their role as it was.
    await t.post(`/v1/orgs/${orgId}/invites`, admin.token, { emails: [existing.email], role: 'read' });
    expect((await t.get(`/v1/orgs/${orgId}/members/${existing.id}`, admin.token)).body.role).toBe('edit');
  });

  it('refuses bad emails (400), non-admins (403) and outsiders (404), adding no one', async () => {
    const { orgId, admin, members } = await t.org(['create']);
    expectError(
      await t.post(`/v1/orgs/${orgId}/invites`, admin.token, { emails: [] }),
      400,
      'Invalid body field "emails": Too small: expected array to have >=1 items.',
    );
    expectError(
      await t.post(`/v1/orgs/${orgId}/invites`, admin.token, { emails: ['ok@invited.test', 'not-an-email'] }),
      400,
      'Invalid body field "emails.1": Invalid email address.',
    );
    expectError(
      await t.post(`/v1/orgs/${orgId}/invites`, admin.token, { emails: ['sso@invited.test'], sso: true }),
      400,
      'Invalid body field "sso": the organization has no SAML provider to sign these members in.',
    );
    expectError(
      await t.post(`/v1/orgs/${orgId}/invites`, members[0]!.token, { emails: ['x@invited.test'] }),
      403,
      'This needs the admin role in the organization.',
    );
    const stranger = await t.user();
    expectError(await t.post(`/v1/orgs/${orgId}/invites`, stranger.token, { emails: ['x@invited.test'] }), 404, NO_ORG);
    expect((await t.get(`/v1/orgs/${orgId}/members`, admin.token)).body.count).toBe(2);
  });
});

describe('agent instructions', () => {
  const doc = { object: 'document', data: { schemaVersion: 1 }, nodes: [{ object: 'block', type: 'paragraph', nodes: [] }] };

  it('reads an empty document first, then what an admin set', async () => {
    const { orgId, admin, members } = await t.org([null]);
    const empty = await t.get(`/v1/orgs/${orgId}/agent-instructions`, members[0]!.token);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      object: 'agent-instructions',
      instructions: { object: 'document', data: { schemaVersion: 1 }, nodes: [] },
      urls: { location: `http://quire.test/v1/orgs/${orgId}/agent-instructions` },
      permissions: { view: true, edit: false },
    });
    const put = await t.put(`/v1/orgs/${orgId}/agent-instructions`, admin.token, { instructions: doc });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ object: 'agent-instructions', instructions: doc, updatedBy: admin.id, permissions: { edit: true } });
    const read = await t.get(`/v1/orgs/${orgId}/agent-instructions`, admin.token);
    expect(read.body).toEqual(put.body);
  });

  it('refuses a bad document (400), non-admin writers (403) and outsiders (404)', async () => {
    const { orgId, admin, members } = await t.org(['edit']);
    expectError(
      await t.put(`/v1/orgs/${orgId}/agent-instructions`, admin.token, { instructions: { nodes: [] } }),
      400,
      'Invalid body field "instructions.object": Invalid input: expected "document".',
    );
    expectError(
      await t.put(`/v1/orgs/${orgId}/agent-instructions`, members[0]!.token, { instructions: doc }),
      403,
      'This needs the admin role in the organization.',
    );
    const stranger = await t.user();
    expectError(await t.get(`/v1/orgs/${orgId}/agent-instructions`, stranger.token), 404, NO_ORG);
    expectError(await t.get('/v1/orgs/bad%20id/agent-instructions', admin.token), 400, /^Invalid path parameter field "organizationId"/);
    expectError(await t.put(`/v1/orgs/${orgId}/agent-instructions`, stranger.token, { instructions: doc }), 404, NO_ORG);
    expect((await t.get(`/v1/orgs/${orgId}/agent-instructions`, admin.token)).body.instructions.nodes).toEqual([]);
  });
});

describe('GET /v1/email-domains/{emailDomain}/orgs', () => {
  it("lists the organizations of the caller's own domain, and nothing for another domain", async () => {
    const u = await userAt();
    const { orgId, admin } = await t.org();
    await t.patch(`/v1/orgs/${orgId}`, admin.token, { emailDomains: [u.domain] });
    const own = await t.get(`/v1/email-domains/${u.domain.toUpperCase()}/orgs`, u.token);
    expect(own.status).toBe(200);
    expect(own.body.organizations.map((o: { id: string }) => o.id)).toEqual([orgId]);
    expect(own.body.organizations[0].permissions).toMatchObject({ view: false, admin: false });
    // Another company's domain reveals nothing, even though an organization claims it.
    const stranger = await t.user();
    expect((await t.get(`/v1/email-domains/${u.domain}/orgs`, stranger.token)).body).toEqual({ organizations: [] });
  });

  it('refuses a domain of the wrong shape', async () => {
    const u = await userAt();
    expectError(
      await t.get("/v1/email-domains/acme'test/orgs", u.token),
      400,
      'Invalid path parameter field "emailDomain": must be a domain name.',
    );
  });
});

describe('POST /v1/orgs/{organizationId}/ping', () => {
  it("records the caller's activity and answers signed visitor claims", async () => {
    const { orgId, admin, members } = await t.org([null]);
    const guest = members[0]!;
    expect((await t.get(`/v1/orgs/${orgId}/members/${guest.id}`, admin.token)).body.lastSeenAt).toBeUndefined();
    const res = await t.post(`/v1/orgs/${orgId}/ping`, guest.token);
    expect(res.status).toBe(200);
    // Signed by the server with its own key: it verifies, and a forged signature does not.
    const key = await serverSecret(t.db, 'visitor-claims');
    const token: string = res.body.platformVisitorClaims;
    const { payload: claims, protectedHeader } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: 'http://quire.test' });
    expect(protectedHeader.alg).toBe('HS256');
    expect(claims).toMatchObject({ sub: guest.id, email: guest.email, organization: orgId });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    const [head, body] = token.split('.');
    await expect(jwtVerify(`${head}.${body}.${'A'.repeat(43)}`, key)).rejects.toThrow(/signature/);
    const seen = (await t.get(`/v1/orgs/${orgId}/members/${guest.id}`, admin.token)).body.lastSeenAt;
    expect(Date.now() - Date.parse(seen)).toBeLessThan(60_000);
  });

  it('refuses a bad id (400) and outsiders (404); every member, guests included, may ping', async () => {
    const { orgId } = await t.org();
    const stranger = await t.user();
    expectError(await t.post(`/v1/orgs/${orgId}/ping`, stranger.token), 404, NO_ORG);
    expectError(await t.post('/v1/orgs/not*an*id/ping', stranger.token), 400, /^Invalid path parameter field "organizationId"/);
  });
});

describe('GET and POST /v1/orgs/{organizationId}/spaces', () => {
  it('creates spaces (201) and lists them', async () => {
    const { orgId, admin, members } = await t.org(['create', 'read']);
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, members[0]!.token, { title: 'Guide', emoji: '📘', language: 'pt-BR' });
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({
      object: 'space',
      title: 'Guide',
      emoji: '📘',
      language: 'pt-BR',
      organization: orgId,
      visibility: 'private',
      editMode: 'live',
      defaultLevel: 'inherit',
      urls: { location: `http://quire.test/v1/spaces/${s.body.id}` },
      permissions: { view: true, edit: true, admin: false },
    });
    const untitled = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, {});
    expect(untitled.body.title).toBe('Untitled');
    const list = await t.get(`/v1/orgs/${orgId}/spaces`, members[1]!.token);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    expect(list.body.items.map((x: { id: string }) => x.id)).toEqual([s.body.id, untitled.body.id]);
    expect(list.body.items[0].permissions).toMatchObject({ view: true, edit: false, comment: false });
  });

  it('creates a space inside a collection given as parent', async () => {
    const { orgId, admin } = await t.org();
    const col = await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: 'Handbooks' });
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Inside', parent: col.body.id });
    expect(s.status).toBe(201);
    expect(s.body.parent).toBe(col.body.id);
  });

  it('refuses bad input (400), members below create and guests (403), outsiders and foreign parents (404)', async () => {
    const { orgId, admin, members } = await t.org(['edit', null]);
    expectError(
      await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'x'.repeat(257) }),
      400,
      'Invalid body field "title": Too big: expected string to have <=256 characters.',
    );
    expectError(await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Ok', kind: 'wiki' }), 400, 'Unknown body field: "kind".');
    expectError(
      await t.post(`/v1/orgs/${orgId}/spaces`, members[0]!.token, { title: 'No' }),
      403,
      'This needs the create role in the organization.',
    );
    expectError(
      await t.post(`/v1/orgs/${orgId}/spaces`, members[1]!.token, { title: 'No' }),
      403,
      'This needs the create role in the organization.',
    );
    const stranger = await t.user();
    expectError(await t.post(`/v1/orgs/${orgId}/spaces`, stranger.token, { title: 'No' }), 404, NO_ORG);
    const other = await t.org();
    const foreign = await t.post(`/v1/orgs/${other.orgId}/collections`, other.admin.token, { title: 'Theirs' });
    expectError(await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'No', parent: foreign.body.id }), 404, NO_COLLECTION);
    expectError(await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'No', parent: UNKNOWN_ID }), 404, NO_COLLECTION);
    expect((await t.get(`/v1/orgs/${orgId}/spaces`, admin.token)).body.count).toBe(0);
  });

  it('lists for guests only the spaces granted to them; refuses bad limits and outsiders', async () => {
    const { orgId, admin, members } = await t.org([null]);
    const guest = members[0]!;
    const a = await space(orgId, admin.token, { title: 'Granted' });
    await space(orgId, admin.token, { title: 'Hidden' });
    await setGrant(t.db, { resource_id: a.id, resource_kind: 'space', principal_id: guest.id, principal_kind: 'user', role: 'comment' });
    const list = await t.get(`/v1/orgs/${orgId}/spaces`, guest.token);
    expect(list.body.count).toBe(1);
    expect(list.body.items[0]).toMatchObject({ id: a.id, permissions: { view: true, comment: true, edit: false } });
    expectError(
      await t.get(`/v1/orgs/${orgId}/spaces?limit=abc`, admin.token),
      400,
      'Invalid query parameter field "limit": must be a whole number from 1 to 1000.',
    );
    const stranger = await t.user();
    expectError(await t.get(`/v1/orgs/${orgId}/spaces`, stranger.token), 404, NO_ORG);
  });
});

describe('GET and POST /v1/orgs/{organizationId}/collections', () => {
  it('creates collections (200), nested ones included, and lists them with the nested flag', async () => {
    const { orgId, admin, members } = await t.org(['create', 'read']);
    const top = await t.post(`/v1/orgs/${orgId}/collections`, members[0]!.token, { title: 'Top', description: 'All of it' });
    expect(top.status).toBe(200);
    expect(top.body).toMatchObject({
      object: 'collection',
      title: 'Top',
      description: 'All of it',
      organization: orgId,
      defaultLevel: 'inherit',
      permissions: { view: true, create: true, admin: false },
      urls: { location: `http://quire.test/v1/collections/${top.body.id}` },
    });
    const child = await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: 'Child', parent: top.body.id });
    expect(child.body.parent).toBe(top.body.id);
    const all = await t.get(`/v1/orgs/${orgId}/collections`, members[1]!.token);
    expect(all.body.items.map((c: { id: string }) => c.id)).toEqual([top.body.id, child.body.id]);
    expect(all.body.items[0].permissions).toMatchObject({ view: true, create: false });
    const topOnly = await t.get(`/v1/orgs/${orgId}/collections?nested=false`, admin.token);
    expect(topOnly.body.items.map((c: { id: string }) => c.id)).toEqual([top.body.id]);
  });

  it('refuses bad input (400), members below create (403), outsiders and foreign parents (404)', async () => {
    const { orgId, admin, members } = await t.org(['review', null]);
    expectError(await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: '' }), 400, /^Invalid body field "title"/);
    expectError(
      await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: 'A', description: 'd'.repeat(1001) }),
      400,
      'Invalid body field "description": Too big: expected string to have <=1000 characters.',
    );
    expectError(await t.get(`/v1/orgs/${orgId}/collections?nested=yes`, admin.token), 400, /^Invalid query parameter field "nested"/);
    expectError(
      await t.post(`/v1/orgs/${orgId}/collections`, members[0]!.token, { title: 'No' }),
      403,
      'This needs the create role in the organization.',
    );
    expectError(
      await t.post(`/v1/orgs/${orgId}/collections`, members[1]!.token, { title: 'No' }),
      403,
      'This needs the create role in the organization.',
    );
    const stranger = await t.user();
    expectError(await t.post(`/v1/orgs/${orgId}/collections`, stranger.token, { title: 'No' }), 404, NO_ORG);
    expectError(await t.get(`/v1/orgs/${orgId}/collections`, stranger.token), 404, NO_ORG);
    const other = await t.org();
    const foreign = await t.post(`/v1/orgs/${other.orgId}/collections`, other.admin.token, { title: 'Theirs' });
    expectError(await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: 'No', parent: foreign.body.id }), 404, NO_COLLECTION);
    expect((await t.get(`/v1/orgs/${orgId}/collections`, admin.token)).body.count).toBe(0);
  });

  it('lets a member create inside a collection where a grant gives them create', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const reader = members[0]!;
    const col = await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: 'Shared' });
    expectError(
      await t.post(`/v1/orgs/${orgId}/collections`, reader.token, { title: 'Sub', parent: col.body.id }),
      403,
      'This needs the create role on the collection.',
    );
    await setGrant(t.db, {
      resource_id: col.body.id,
      resource_kind: 'collection',
      principal_id: reader.id,
      principal_kind: 'user',
      role: 'create',
    });
    const sub = await t.post(`/v1/orgs/${orgId}/collections`, reader.token, { title: 'Sub', parent: col.body.id });
    expect(sub.status).toBe(200);
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, reader.token, { title: 'Space', parent: col.body.id });
    expect(s.status).toBe(201);
  });

  it('lists for guests only the collections granted to them', async () => {
    const { orgId, admin, members } = await t.org([null]);
    const a = await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: 'Granted' });
    await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: 'Hidden' });
    await setGrant(t.db, {
      resource_id: a.body.id,
      resource_kind: 'collection',
      principal_id: members[0]!.id,
      principal_kind: 'user',
      role: 'read',
    });
    const list = await t.get(`/v1/orgs/${orgId}/collections`, members[0]!.token);
    expect(list.body.items.map((c: { id: string }) => c.id)).toEqual([a.body.id]);
    expect(list.body.count).toBe(1);
  });
});

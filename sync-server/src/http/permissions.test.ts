import { ROLES, type Role } from '@quire/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atLeast } from '../core/access/roles';
import { setGrant } from '../store/grants';
import { type Answer, type TestUser, TestServer } from '../testing/harness';

/**
 * One table: each role against each operation of the organization API (reads and writes),
 * and the `permissions` objects each role is shown. Every write cell runs on a fresh
 * target, so no cell depends on another.
 */

const CALLERS = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'outsider'] as const;
type Caller = (typeof CALLERS)[number];

let t: TestServer;
let orgId: string;
let targetOrgId: string;
/** Sets up every cell's target; never one of the callers. */
let owner: TestUser;
const callers = {} as Record<Caller, TestUser>;

beforeAll(async () => {
  t = await TestServer.start();
  const org = await t.org(['admin', 'create', 'review', 'edit', 'comment', 'read', null]);
  orgId = org.orgId;
  owner = org.admin;
  CALLERS.slice(0, 7).forEach((name, i) => {
    callers[name] = org.members[i] as TestUser;
  });
  callers.outsider = await t.user('outsider');
  // A transfer target where every caller may create, so a refusal comes from the source alone.
  const target = await t.org();
  targetOrgId = target.orgId;
  for (const name of CALLERS)
    await t.db.query("INSERT INTO org_members (org_id, user_id, role) VALUES ($1, $2, 'create')", [targetOrgId, callers[name].id]);
});
afterAll(async () => t?.close());

const newSpace = async (body: Record<string, unknown> = { title: 'Target' }) =>
  (await t.post(`/v1/orgs/${orgId}/spaces`, owner.token, body)).body.id as string;
const newCollection = async (body: Record<string, unknown> = { title: 'Target' }) =>
  (await t.post(`/v1/orgs/${orgId}/collections`, owner.token, body)).body.id as string;
const newTeam = async () =>
  (await t.put(`/v1/orgs/${orgId}/teams`, owner.token, { title: 'Target', members: [callers.read.id] })).body.id as string;
const O = () => `/v1/orgs/${orgId}`;

type Row = [name: string, expected: Record<Caller, number>, run: (token: string) => Promise<Answer>];

/** Expected statuses from a rule: the least role that may, what others get, what the invisible get. */
function expectByRole(least: Role | 'member', ok: number, invisible: { guest: number; outsider: number }): Record<Caller, number> {
  const out = {} as Record<Caller, number>;
  for (const name of CALLERS) {
    if (name === 'guest') out[name] = least === 'member' ? ok : invisible.guest;
    else if (name === 'outsider') out[name] = invisible.outsider;
    else out[name] = least === 'member' || atLeast(name as Role, least) ? ok : 403;
  }
  return out;
}
const inOrg = { guest: 403, outsider: 404 };
const onResource = { guest: 404, outsider: 404 };
/** DELETE answers 204 for what the caller cannot see, exactly as for what does not exist. */
const deleteUnseen = { guest: 204, outsider: 204 };
/** Inside an organization: a guest sees it and is refused; to an outsider nothing is there to delete. */
const deleteInOrg = { guest: 403, outsider: 204 };

const everyone = (status: number) => Object.fromEntries(CALLERS.map((name) => [name, status])) as Record<Caller, number>;
let sharedTeam: string | undefined;
const aTeam = async () => (sharedTeam ??= await newTeam());
let sharedSpace: string | undefined;
const aSpace = async () => (sharedSpace ??= await newSpace());
let sharedCollection: string | undefined;
const aCollection = async () => (sharedCollection ??= await newCollection());

const ROWS: Row[] = [
  // The caller's own: no organization role involved
  ['GET /v1/user', everyone(200), (tk) => t.get('/v1/user', tk)],
  ['GET /v1/orgs', everyone(200), (tk) => t.get('/v1/orgs', tk)],
  ['POST /v1/orgs', everyone(201), (tk) => t.post('/v1/orgs', tk, { title: 'Own' })],
  ['GET /v1/email-domains/{domain}/orgs', everyone(200), (tk) => t.get('/v1/email-domains/example.com/orgs', tk)],
  // Organization reads
  ['GET O', expectByRole('member', 200, inOrg), (tk) => t.get(O(), tk)],
  ['GET O/agent-instructions', expectByRole('member', 200, inOrg), (tk) => t.get(`${O()}/agent-instructions`, tk)],
  ['GET O/spaces', expectByRole('member', 200, inOrg), (tk) => t.get(`${O()}/spaces`, tk)],
  ['GET O/collections', expectByRole('member', 200, inOrg), (tk) => t.get(`${O()}/collections`, tk)],
  // Members already in answer 204; an outsider whose email domain does not open the organization cannot see it.
  ['POST O/join', expectByRole('member', 204, { guest: 204, outsider: 404 }), (tk) => t.post(`${O()}/join`, tk)],
  ['GET O/members', expectByRole('read', 200, inOrg), (tk) => t.get(`${O()}/members`, tk)],
  ['GET O/members/{other}', expectByRole('read', 200, inOrg), (tk) => t.get(`${O()}/members/${owner.id}`, tk)],
  ['GET O/members/{other}/spaces', expectByRole('admin', 200, inOrg), (tk) => t.get(`${O()}/members/${owner.id}/spaces`, tk)],
  ['GET O/members/{other}/teams', expectByRole('read', 200, inOrg), (tk) => t.get(`${O()}/members/${owner.id}/teams`, tk)],
  ['GET O/teams', expectByRole('read', 200, inOrg), (tk) => t.get(`${O()}/teams`, tk)],
  ['GET O/teams/{id}', expectByRole('read', 200, inOrg), async (tk) => t.get(`${O()}/teams/${await aTeam()}`, tk)],
  ['GET O/teams/{id}/members', expectByRole('read', 200, inOrg), async (tk) => t.get(`${O()}/teams/${await aTeam()}/members`, tk)],
  ['GET S', expectByRole('read', 200, onResource), async (tk) => t.get(`/v1/spaces/${await aSpace()}`, tk)],
  ['GET C', expectByRole('read', 200, onResource), async (tk) => t.get(`/v1/collections/${await aCollection()}`, tk)],
  ['GET C/spaces', expectByRole('read', 200, onResource), async (tk) => t.get(`/v1/collections/${await aCollection()}/spaces`, tk)],
  // Organization writes
  ['PATCH O', expectByRole('admin', 200, inOrg), (tk) => t.patch(O(), tk, { title: 'Org' })],
  [
    'DELETE O/link-invites/{id}',
    expectByRole('admin', 204, deleteInOrg),
    async (tk) => {
      const id = `inv_${Math.random().toString(36).slice(2, 12)}`;
      await t.db.query('INSERT INTO link_invites (id, org_id) VALUES ($1, $2)', [id, orgId]);
      return t.delete(`${O()}/link-invites/${id}`, tk);
    },
  ],
  [
    'POST O/invites',
    expectByRole('admin', 200, inOrg),
    (tk) => t.post(`${O()}/invites`, tk, { emails: [`x${Math.random()}@perm.test`.replace('0.', '')] }),
  ],
  [
    'PUT O/agent-instructions',
    expectByRole('admin', 200, inOrg),
    (tk) => t.put(`${O()}/agent-instructions`, tk, { instructions: { object: 'document', nodes: [] } }),
  ],
  ['POST O/ping', expectByRole('member', 200, inOrg), (tk) => t.post(`${O()}/ping`, tk)],
  ['POST O/spaces', expectByRole('create', 201, inOrg), (tk) => t.post(`${O()}/spaces`, tk, { title: 'New' })],
  ['POST O/collections', expectByRole('create', 200, inOrg), (tk) => t.post(`${O()}/collections`, tk, { title: 'New' })],
  // Members
  [
    'DELETE O/members/{other}',
    expectByRole('admin', 204, deleteInOrg),
    async (tk) => t.delete(`${O()}/members/${(await t.member(orgId, 'read')).id}`, tk),
  ],
  [
    'PATCH O/members/{id}',
    expectByRole('admin', 200, inOrg),
    async (tk) => t.patch(`${O()}/members/${(await t.member(orgId, 'read')).id}`, tk, { role: 'comment' }),
  ],
  [
    'POST O/members/{id}/sso',
    expectByRole('admin', 200, inOrg),
    async (tk) => t.post(`${O()}/members/${(await t.member(orgId, 'read')).id}/sso`, tk),
  ],
  // Teams
  ['PUT O/teams', expectByRole('admin', 200, inOrg), (tk) => t.put(`${O()}/teams`, tk, { title: 'New' })],
  ['DELETE O/teams/{id}', expectByRole('admin', 204, deleteInOrg), async (tk) => t.delete(`${O()}/teams/${await newTeam()}`, tk)],
  [
    'PATCH O/teams/{id}',
    expectByRole('admin', 200, inOrg),
    async (tk) => t.patch(`${O()}/teams/${await newTeam()}`, tk, { title: 'Renamed' }),
  ],
  [
    'PUT O/teams/{id}/members',
    expectByRole('admin', 204, inOrg),
    async (tk) => t.put(`${O()}/teams/${await newTeam()}/members`, tk, { add: [callers.edit.id] }),
  ],
  [
    'PUT O/teams/{id}/members/{user}',
    expectByRole('admin', 204, inOrg),
    async (tk) => t.put(`${O()}/teams/${await newTeam()}/members/${callers.edit.id}`, tk, {}),
  ],
  [
    'DELETE O/teams/{id}/members/{user}',
    expectByRole('admin', 204, deleteInOrg),
    async (tk) => t.delete(`${O()}/teams/${await newTeam()}/members/${callers.read.id}`, tk),
  ],
  // Spaces (at the root, default level inherited: the effective role is the organization role)
  [
    'PATCH S (title)',
    expectByRole('edit', 200, onResource),
    async (tk) => t.patch(`/v1/spaces/${await newSpace()}`, tk, { title: 'Renamed' }),
  ],
  [
    'PATCH S (defaultLevel)',
    expectByRole('admin', 200, onResource),
    async (tk) => t.patch(`/v1/spaces/${await newSpace()}`, tk, { defaultLevel: 'read' }),
  ],
  ['DELETE S', expectByRole('admin', 204, deleteUnseen), async (tk) => t.delete(`/v1/spaces/${await newSpace()}`, tk)],
  ['POST S/duplicate', expectByRole('create', 200, onResource), async (tk) => t.post(`/v1/spaces/${await newSpace()}/duplicate`, tk)],
  [
    'POST S/restore',
    expectByRole('admin', 200, onResource),
    async (tk) => {
      const id = await newSpace();
      await t.delete(`/v1/spaces/${id}`, owner.token);
      return t.post(`/v1/spaces/${id}/restore`, tk);
    },
  ],
  [
    'POST S/move',
    expectByRole('admin', 200, onResource),
    async (tk) => t.post(`/v1/spaces/${await newSpace()}/move`, tk, { parent: await newCollection() }),
  ],
  [
    'POST S/transfer',
    expectByRole('admin', 200, onResource),
    async (tk) => t.post(`/v1/spaces/${await newSpace()}/transfer`, tk, { organization: targetOrgId }),
  ],
  // Collections
  [
    'PATCH C',
    expectByRole('admin', 200, onResource),
    async (tk) => t.patch(`/v1/collections/${await newCollection()}`, tk, { title: 'Renamed' }),
  ],
  ['DELETE C', expectByRole('admin', 204, deleteUnseen), async (tk) => t.delete(`/v1/collections/${await newCollection()}`, tk)],
  [
    'POST C/move',
    expectByRole('admin', 200, onResource),
    async (tk) => t.post(`/v1/collections/${await newCollection()}/move`, tk, { parent: await newCollection() }),
  ],
  [
    'POST C/transfer',
    expectByRole('admin', 200, onResource),
    async (tk) => t.post(`/v1/collections/${await newCollection()}/transfer`, tk, { organization: targetOrgId }),
  ],
];

describe('each role against each operation', () => {
  it.each(ROWS)('%s', async (_name, expected, run) => {
    const actual = {} as Record<Caller, number>;
    for (const name of CALLERS) {
      const res = await run(callers[name].token);
      actual[name] = res.status;
      if (res.status >= 400) expect(res.body).toEqual({ error: { code: res.status, message: expect.any(String) } });
    }
    expect(actual).toEqual(expected);
  });

  it('the effective role through a grant opens the same doors to a guest', async () => {
    const id = await newSpace();
    await setGrant(t.db, { resource_id: id, resource_kind: 'space', principal_id: callers.guest.id, principal_kind: 'user', role: 'edit' });
    expect((await t.patch(`/v1/spaces/${id}`, callers.guest.token, { title: 'By guest' })).status).toBe(200);
    expect((await t.patch(`/v1/spaces/${id}`, callers.guest.token, { defaultLevel: 'edit' })).status).toBe(403);
  });
});

describe('permissions objects match the role', () => {
  const spacePermissions = (r: Role | null) => ({
    view: !!r,
    access: !!r,
    admin: atLeast(r, 'admin'),
    viewInviteLinks: atLeast(r, 'admin'),
    edit: atLeast(r, 'edit'),
    triggerGitSync: atLeast(r, 'edit'),
    comment: atLeast(r, 'comment'),
    merge: atLeast(r, 'review'),
    review: atLeast(r, 'review'),
    installIntegration: atLeast(r, 'admin'),
  });
  const collectionPermissions = (r: Role | null) => ({
    view: !!r,
    admin: atLeast(r, 'admin'),
    viewInviteLinks: atLeast(r, 'admin'),
    create: atLeast(r, 'create'),
  });
  const orgPermissions = (r: Role | null) => ({
    view: true,
    access: true,
    admin: r === 'admin',
    ownTeam: r !== null,
    createContent: atLeast(r, 'create'),
    createOpenAPISpec: atLeast(r, 'create'),
    ingestConversations: r === 'admin',
    viewBilling: r === 'admin',
    listMembers: r !== null,
    listTeams: r !== null,
    listIntegrations: r !== null,
    listInstallations: r === 'admin',
    installIntegration: r === 'admin',
  });

  it.each(ROLES.map((r) => [r]))('%s member', async (role) => {
    const space = await newSpace();
    const col = await newCollection();
    const tk = callers[role].token;
    expect((await t.get(`/v1/spaces/${space}`, tk)).body.permissions).toEqual(spacePermissions(role));
    expect((await t.get(`/v1/collections/${col}`, tk)).body.permissions).toEqual(collectionPermissions(role));
    expect((await t.get(O(), tk)).body.permissions).toEqual(orgPermissions(role));
    const listed = await t.get(`${O()}/spaces?limit=1000`, tk);
    expect(listed.body.items.find((s: { id: string }) => s.id === space).permissions).toEqual(spacePermissions(role));
  });

  it('a locked space takes edit and merge from everyone, admins included', async () => {
    const space = await newSpace();
    await t.patch(`/v1/spaces/${space}`, owner.token, { editMode: 'locked' });
    for (const role of ROLES) {
      expect((await t.get(`/v1/spaces/${space}`, callers[role].token)).body.permissions).toEqual({
        ...spacePermissions(role),
        edit: false,
        merge: false,
      });
    }
  });

  it('default levels and grants show in the permissions of a guest and of members', async () => {
    const col = await newCollection();
    await t.patch(`/v1/collections/${col}`, owner.token, { defaultLevel: 'review' });
    const space = await newSpace({ title: 'Inside', parent: col });
    // Members take the collection's level, down or up.
    expect((await t.get(`/v1/spaces/${space}`, callers.read.token)).body.permissions).toEqual(spacePermissions('review'));
    expect((await t.get(`/v1/spaces/${space}`, callers.create.token)).body.permissions).toEqual(spacePermissions('review'));
    expect((await t.get(`/v1/collections/${col}`, callers.create.token)).body.permissions).toEqual(collectionPermissions('review'));
    // A guest has nothing until a grant, then exactly the grant.
    expect((await t.get(`/v1/spaces/${space}`, callers.guest.token)).status).toBe(404);
    await setGrant(t.db, {
      resource_id: col,
      resource_kind: 'collection',
      principal_id: callers.guest.id,
      principal_kind: 'user',
      role: 'comment',
    });
    expect((await t.get(`/v1/spaces/${space}`, callers.guest.token)).body.permissions).toEqual(spacePermissions('comment'));
    expect((await t.get(O(), callers.guest.token)).body.permissions).toEqual(orgPermissions(null));
  });

  it('guests without a grant and outsiders see no space or collection; outsiders no organization', async () => {
    const space = await newSpace();
    const col = await newCollection();
    for (const name of ['guest', 'outsider'] as const) {
      expect((await t.get(`/v1/spaces/${space}`, callers[name].token)).status).toBe(404);
      expect((await t.get(`/v1/collections/${col}`, callers[name].token)).status).toBe(404);
    }
    expect((await t.get(O(), callers.outsider.token)).status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../testing/apiExpect';
import { TestServer, type TestUser } from '../../testing/harness';

/** Nesting a section group inside itself or a group below it would hide it from every reader. */
let t: TestServer;
let admin: TestUser;
let base: string;
let outer: string;
let middle: string;
let inner: string;

beforeAll(async () => {
  t = await TestServer.start();
  const org = await t.org();
  admin = org.admin;
  const spaceId = (await t.post(`/v1/orgs/${org.orgId}/spaces`, admin.token, { title: 'Docs' })).body.id as string;
  const site = (await t.post(`/v1/orgs/${org.orgId}/sites`, admin.token, { title: 'Site', spaces: [spaceId] })).body;
  base = `/v1/orgs/${org.orgId}/sites/${site.id}`;
  const group = async (title: string, parent?: string) => {
    const res = await t.post(`${base}/section-groups`, admin.token, parent ? { title, parent } : { title });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };
  outer = await group('Outer');
  middle = await group('Middle', outer);
  inner = await group('Inner', middle);
});
afterAll(async () => t?.close());

const snapshot = async () => {
  const site = await t.get(base, admin.token);
  const groups = await t.get(`${base}/section-groups`, admin.token);
  return { updatedAt: site.body.updatedAt, groups: groups.body };
};

describe('section group nesting', () => {
  it.each([
    ['itself', () => outer],
    ['its child', () => middle],
    ['its grandchild', () => inner],
  ])('refuses to move a group inside %s, and changes nothing', async (_what, target) => {
    const before = await snapshot();
    const res = await t.patch(`${base}/section-groups/${outer}`, admin.token, { parentSectionGroupId: target() });
    expectError(res, 400, /parentSectionGroupId/);
    expect(await snapshot()).toEqual(before);
  });

  it('still moves a group under a group that is not below it', async () => {
    const res = await t.patch(`${base}/section-groups/${inner}`, admin.token, { parentSectionGroupId: outer });
    expect(res.status).toBe(200);
    const back = await t.patch(`${base}/section-groups/${inner}`, admin.token, { parentSectionGroupId: null });
    expect(back.status).toBe(200);
  });
});

import type { Role } from '@quire/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../store/db';
import { addMember } from '../../store/members';
import { createOrg } from '../../store/organizations';
import { type SiteRow, createSite, updateSite } from '../../store/sites';
import { ensureUser } from '../../store/users';
import { freshTestDb } from '../../testing/databases';
import { Access } from '../access/callerAccess';
import { readModelOf } from '../readModel/readModel';
import { siteForDelete, siteForRead, siteForWrite } from './siteAccess';

/**
 * Who reads a site's settings and structure through the API: members with a role read
 * every site of their organization, and only those with the create role change one; a
 * guest (member without a role) and an outsider read only a published site open to its
 * audience, and get the same 404 as for an unknown id otherwise.
 */
let db: Db;
let orgId: string;
let otherOrgId: string;
let n = 0;
const users: Record<string, string> = {};

async function user(name: string): Promise<string> {
  return (await ensureUser(db, `${name}-${++n}-${Math.random().toString(36).slice(2, 7)}@example.com`, name)).id;
}

beforeAll(async () => {
  db = await freshTestDb();
  await readModelOf(db).ready;
  users.owner = await user('owner');
  orgId = (await createOrg(db, 'Sites', users.owner)).id;
  otherOrgId = (await createOrg(db, 'Elsewhere', await user('other-owner'))).id;
  for (const role of ['read', 'comment', 'edit', 'review', 'create'] as Role[]) {
    users[role] = await user(role);
    await addMember(db, orgId, users[role] as string, role);
  }
  users.guest = await user('guest');
  await addMember(db, orgId, users.guest, null);
  users.outsider = await user('outsider');
});
afterAll(async () => db?.close());

async function site(visibility: SiteRow['visibility'], published: boolean): Promise<SiteRow> {
  const s = await createSite(db, orgId, { title: visibility, type: 'basic', visibility, basename: `${visibility}-${++n}` });
  return updateSite(db, s.id, { published });
}

const as = (who: string) => new Access(db, users[who] as string);
const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (err: { kind?: string; message?: string }) => `${err.kind}: ${err.message}`,
  );
const NOT_FOUND = 'not_found: No matching site found.';

describe('reading a site', () => {
  it('lets members with a role read every site, published or not, and only the create role manage it', async () => {
    for (const visibility of ['public', 'unlisted', 'share-link', 'visitor-auth'] as const) {
      for (const published of [true, false]) {
        const s = await site(visibility, published);
        for (const role of ['read', 'comment', 'edit', 'review']) {
          const r = await siteForRead(db, as(role), orgId, s.id);
          expect(r.site.id).toBe(s.id);
          expect(r.manager, role).toBe(false);
          expect(r.access.isMember).toBe(true);
        }
        for (const role of ['create', 'owner']) {
          const r = await siteForRead(db, as(role), orgId, s.id);
          expect(r.manager, role).toBe(true);
          expect(r.access.orgRole).toBe(role === 'owner' ? 'admin' : 'create');
        }
      }
    }
  });

  it('lets guests and outsiders read a published public or unlisted site, as no member', async () => {
    for (const visibility of ['public', 'unlisted'] as const) {
      const s = await site(visibility, true);
      for (const who of ['guest', 'outsider']) {
        const r = await siteForRead(db, as(who), orgId, s.id);
        expect(r.site.id).toBe(s.id);
        expect(r.manager).toBe(false);
        // Nothing of the organization comes with it: no role, no grants.
        expect(r.access).toMatchObject({ orgId, isMember: false, orgRole: null });
      }
    }
  });

  it('answers 404 to guests and outsiders for an unpublished site, whatever its audience', async () => {
    for (const visibility of ['public', 'unlisted', 'share-link', 'visitor-auth'] as const) {
      const s = await site(visibility, false);
      for (const who of ['guest', 'outsider']) {
        expect(await status(siteForRead(db, as(who), orgId, s.id, s.share_key)), `${visibility} ${who}`).toEqual(NOT_FOUND);
      }
    }
  });

  it('opens a published share-link site to guests and outsiders only with its key', async () => {
    const s = await site('share-link', true);
    for (const who of ['guest', 'outsider']) {
      expect((await siteForRead(db, as(who), orgId, s.id, s.share_key)).site.id).toBe(s.id);
      for (const key of [undefined, '', `${s.share_key}x`, s.share_key.slice(0, -1), (await site('share-link', true)).share_key]) {
        expect(await status(siteForRead(db, as(who), orgId, s.id, key)), `${who} ${key}`).toEqual(NOT_FOUND);
      }
    }
  });

  it('never opens a published visitor-auth site through the API to guests or outsiders, key or not', async () => {
    const s = await site('visitor-auth', true);
    for (const who of ['guest', 'outsider']) {
      expect(await status(siteForRead(db, as(who), orgId, s.id))).toEqual(NOT_FOUND);
      expect(await status(siteForRead(db, as(who), orgId, s.id, s.share_key))).toEqual(NOT_FOUND);
    }
  });

  it('answers 404 for a site of another organization, or none', async () => {
    const s = await site('public', true);
    expect(await status(siteForRead(db, as('owner'), otherOrgId, s.id))).toEqual(NOT_FOUND);
    expect(await status(siteForRead(db, as('owner'), orgId, 'AAAAAAAAAAAAAAAAAAAAAA'))).toEqual(NOT_FOUND);
  });
});

describe('changing and deleting a site', () => {
  it('lets the create role and above change a site', async () => {
    const s = await site('public', true);
    for (const who of ['create', 'owner']) {
      const r = await siteForWrite(db, as(who), orgId, s.id);
      expect(r.site.id).toBe(s.id);
      expect(r.access.isMember).toBe(true);
      expect((await siteForDelete(db, as(who), orgId, s.id))?.id).toBe(s.id);
    }
  });

  it('refuses members below the create role with 403 naming the role, and hides the site from everyone else', async () => {
    const s = await site('public', true);
    for (const who of ['read', 'comment', 'edit', 'review', 'guest']) {
      expect(await status(siteForWrite(db, as(who), orgId, s.id)), who).toBe('forbidden: This needs the create role in the organization.');
      expect(await status(siteForDelete(db, as(who), orgId, s.id)), who).toBe('forbidden: This needs the create role in the organization.');
    }
    expect(await status(siteForWrite(db, as('outsider'), orgId, s.id))).toEqual(expect.stringMatching(/^not_found: .*organization/i));
    expect(await status(siteForWrite(db, as('owner'), orgId, 'AAAAAAAAAAAAAAAAAAAAAA'))).toEqual(
      expect.stringMatching(/^not_found: .*site/i),
    );
    // A delete of what the caller cannot see, or of nothing, is no error and deletes nothing.
    expect(await siteForDelete(db, as('outsider'), orgId, s.id)).toBeUndefined();
    expect(await siteForDelete(db, as('owner'), orgId, 'AAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
    expect(await siteForDelete(db, as('owner'), otherOrgId, s.id)).toBeUndefined();
  });
});

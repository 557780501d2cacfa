import { SyncClose, SyncCloseReason, SyncRefusal, changeRequestRoom, parseRoom, spaceRoom, type SyncRoom } from '@quire/shared/sync';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSecret } from '../core/security/secrets';
import { openChangeRequest } from '../core/content/changeRequests';
import { readModelOf } from '../core/readModel/readModel';
import type { Db } from '../store/db';
import { addMember } from '../store/members';
import { createOrg } from '../store/organizations';
import { type SpaceRow, createSpace, getSpace } from '../store/spaces';
import { getChangeRequestForSync } from '../store/syncRooms';
import { createToken, revokeToken } from '../store/tokens';
import { ensureUser } from '../store/users';
import { freshTestDb } from '../testing/databases';
import { type Credentials, authenticate, loadRoomPolicy, policyOf, roleInRoom, writeRefusal } from './access';
import { issueTicket, looksLikeTicket, verifyTicket } from '../core/sync/tickets';

/**
 * Which sockets may join which room: the credential an upgrade carries (an API token in the
 * header, or a single-use ticket for that one room), the caller's role on the room's space,
 * and a change request room naming a change request of that very space. Everything refused
 * closes before any document data is sent, with the same 4404 for what exists and what not.
 */
let db: Db;
let owner: { id: string; token: string; tokenId: string };
let reader: { id: string; token: string; tokenId: string };
let outsider: { id: string; token: string; tokenId: string };
let space: SpaceRow;
let otherSpace: SpaceRow;
let crId: string;
let otherCrId: string;
let n = 0;

async function user(name: string) {
  const u = await ensureUser(db, `${name}-${++n}-${Math.random().toString(36).slice(2, 7)}@example.com`, name);
  const token = await createToken(db, u.id);
  const [row] = await db.query<{ id: string }>('SELECT id FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1', [u.id]);
  return { id: u.id, token, tokenId: row!.id };
}

beforeAll(async () => {
  db = await freshTestDb();
  await readModelOf(db).ready;
  owner = await user('owner');
  reader = await user('reader');
  outsider = await user('outsider');
  const org = await createOrg(db, 'Rooms', owner.id);
  await addMember(db, org.id, reader.id, 'read');
  space = await createSpace(db, org.id, { title: 'Mine' });
  otherSpace = await createSpace(db, org.id, { title: 'Other' });
  crId = (await openChangeRequest(db, space.id, owner.id, { subject: 'Here' })).id;
  otherCrId = (await openChangeRequest(db, otherSpace.id, owner.id, { subject: 'There' })).id;
});
afterAll(async () => db?.close());

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (err: { code?: number; reason?: string }) => `${err.code} ${err.reason}`,
  );
const refused = (code: number, reason: string) => `${code} ${reason}`;
const creds = (u: { id: string; tokenId: string }): Credentials => ({ userId: u.id, tokenId: u.tokenId });
const room = (name: string) => parseRoom(name) as SyncRoom;

describe('authenticating an upgrade', () => {
  it('takes an API token in the header, never in the URL', async () => {
    const name = spaceRoom(space.id);
    expect(await authenticate(db, owner.token, name)).toEqual({ userId: owner.id, tokenId: owner.tokenId });
    expect(await authenticate(db, owner.token, name, 'header')).toEqual({ userId: owner.id, tokenId: owner.tokenId });
    expect(await refusal(authenticate(db, owner.token, name, 'query'))).toBe(
      refused(SyncClose.unauthenticated, SyncCloseReason.tokenInUrl),
    );
    expect(await refusal(authenticate(db, undefined, name))).toBe(refused(SyncClose.unauthenticated, SyncCloseReason.noToken));
    expect(await refusal(authenticate(db, '', name, 'query'))).toBe(refused(SyncClose.unauthenticated, SyncCloseReason.noToken));
    expect(await refusal(authenticate(db, `${owner.token}x`, name))).toBe(refused(SyncClose.unauthenticated, SyncCloseReason.badToken));
  });

  it('opens one connection to one room with a ticket, in the URL or the header', async () => {
    const name = changeRequestRoom(space.id, crId);
    for (const source of ['query', 'header'] as const) {
      const { ticket } = await issueTicket(db, { userId: reader.id, tokenId: reader.tokenId, room: name }, 60);
      expect(await authenticate(db, ticket, name, source)).toEqual({ userId: reader.id, tokenId: reader.tokenId });
      // Spent: seen once in a log, it opens nothing more.
      expect(await refusal(authenticate(db, ticket, name, source))).toBe(refused(SyncClose.unauthenticated, SyncCloseReason.ticketUsed));
    }
  });

  it('refuses a ticket for another room, including a change request of another space', async () => {
    for (const other of [
      spaceRoom(otherSpace.id),
      changeRequestRoom(otherSpace.id, otherCrId),
      changeRequestRoom(space.id, otherCrId),
      spaceRoom(space.id),
    ]) {
      const { ticket } = await issueTicket(db, { userId: owner.id, tokenId: owner.tokenId, room: other }, 60);
      for (const source of ['query', 'header'] as const) {
        expect(await refusal(authenticate(db, ticket, changeRequestRoom(space.id, crId), source)), `${other} ${source}`).toBe(
          refused(SyncClose.unauthenticated, SyncCloseReason.badTicket),
        );
      }
    }
  });

  it('refuses a ticket whose API token was revoked, an expired one, and a forged one', async () => {
    const gone = await user('gone');
    const name = spaceRoom(space.id);
    const { ticket } = await issueTicket(db, { userId: gone.id, tokenId: gone.tokenId, room: name }, 60);
    expect(await revokeToken(db, gone.token)).toBe(true);
    expect(await refusal(authenticate(db, ticket, name, 'query'))).toBe(refused(SyncClose.unauthenticated, SyncCloseReason.badTicket));
    const expired = (await issueTicket(db, { userId: owner.id, tokenId: owner.tokenId, room: name }, -10)).ticket;
    expect(await verifyTicket(db, expired)).toBeUndefined();
    const [head, , sig] = expired.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ sub: owner.id, room: name, tid: owner.tokenId, aud: 'quire-sync', exp: 9e9, jti: 'x' })).toString('base64url')}.${sig}`;
    for (const bad of [expired, forged]) {
      expect(looksLikeTicket(bad)).toBe(true);
      for (const source of ['query', 'header'] as const) {
        expect(await refusal(authenticate(db, bad, name, source))).toBe(refused(SyncClose.unauthenticated, SyncCloseReason.badTicket));
      }
    }
  });

  it('refuses a token signed with the tickets key that is not a whole ticket, or is for another audience', async () => {
    const key = await serverSecret(db, 'sync-tickets');
    const name = spaceRoom(space.id);
    const exp = Math.floor(Date.now() / 1000) + 60;
    const full: Record<string, unknown> = { sub: owner.id, room: name, tid: owner.tokenId, jti: `j${++n}`, exp, aud: 'quire-sync' };
    const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
    // The whole ticket, signed here, is taken: what follows differs from it by one claim.
    expect(await verifyTicket(db, await sign(full))).toMatchObject({ userId: owner.id, room: name, tokenId: owner.tokenId });
    for (const drop of ['sub', 'room', 'tid', 'jti', 'exp']) {
      const rest = { ...full };
      delete rest[drop];
      expect(await verifyTicket(db, await sign(rest)), `without ${drop}`).toBeUndefined();
    }
    for (const [claim, value] of [
      ['sub', 5],
      ['room', ['x']],
      ['tid', null],
      ['jti', 7],
      ['aud', 'another-use'],
    ] as const) {
      expect(await verifyTicket(db, await sign({ ...full, [claim]: value })), `${claim} = ${JSON.stringify(value)}`).toBeUndefined();
    }
    const other = await sign({ ...full, aud: 'another-use', jti: `j${++n}` });
    expect(await refusal(authenticate(db, other, name, 'query'))).toBe(refused(SyncClose.unauthenticated, SyncCloseReason.badTicket));
  });

  it('reads a ticket back with who it speaks for, the room, and when it expires', async () => {
    const name = spaceRoom(space.id);
    const before = Math.floor(Date.now() / 1000);
    const { ticket, expiresAt } = await issueTicket(db, { userId: owner.id, tokenId: owner.tokenId, room: name }, 60);
    const claims = await verifyTicket(db, ticket);
    expect(claims).toMatchObject({ userId: owner.id, tokenId: owner.tokenId, room: name, id: expect.any(String), expiresAt });
    expect(expiresAt.getTime() / 1000).toBeGreaterThanOrEqual(before + 60);
    expect(expiresAt.getTime() / 1000).toBeLessThanOrEqual(before + 61);
    expect(looksLikeTicket(owner.token)).toBe(false);
    expect(looksLikeTicket(`a.b.c.d`)).toBe(false);
    expect(looksLikeTicket(`x${ticket}`)).toBe(true);
    expect(looksLikeTicket(`${ticket} `)).toBe(false);
    expect(looksLikeTicket(` ${ticket}`)).toBe(false);
  });
});

describe('joining a room', () => {
  it('lets members with a role on the space join its main room and its own change requests', async () => {
    expect(await roleInRoom(db, creds(owner), room(spaceRoom(space.id)))).toBe('admin');
    expect(await roleInRoom(db, creds(reader), room(spaceRoom(space.id)))).toBe('read');
    expect(await roleInRoom(db, creds(reader), room(changeRequestRoom(space.id, crId)))).toBe('read');
  });

  it('refuses with 4404 an outsider, an unknown space, and a change request of another space or none', async () => {
    const noAccess = refused(SyncClose.notFound, SyncCloseReason.noAccess);
    expect(await refusal(roleInRoom(db, creds(outsider), room(spaceRoom(space.id))))).toBe(noAccess);
    expect(await refusal(roleInRoom(db, creds(outsider), room(changeRequestRoom(space.id, crId))))).toBe(noAccess);
    expect(await refusal(roleInRoom(db, creds(owner), room(spaceRoom('AAAAAAAAAAAAAAAAAAAAAA'))))).toBe(noAccess);
    for (const who of [owner, reader]) {
      expect(await refusal(roleInRoom(db, creds(who), room(changeRequestRoom(space.id, otherCrId))))).toBe(noAccess);
      expect(await refusal(roleInRoom(db, creds(who), room(changeRequestRoom(otherSpace.id, crId))))).toBe(noAccess);
      expect(await refusal(roleInRoom(db, creds(who), room(changeRequestRoom(space.id, 'AAAAAAAAAAAAAAAAAAAAAA'))))).toBe(noAccess);
    }
  });
});

describe('writing in a room', () => {
  it('takes edits on main unless the space is locked, and on an open change request of that space only', async () => {
    const main = room(spaceRoom(space.id));
    const cr = room(changeRequestRoom(space.id, crId));
    expect(await loadRoomPolicy(db, main)).toEqual({ refusal: undefined });
    expect(await loadRoomPolicy(db, cr)).toEqual({ refusal: undefined });
    await db.query("UPDATE spaces SET edit_mode = 'locked' WHERE id = $1", [space.id]);
    expect(await loadRoomPolicy(db, main)).toEqual({ refusal: SyncRefusal.locked });
    await db.query("UPDATE spaces SET edit_mode = 'open' WHERE id = $1", [space.id]);
    const row = await getSpace(db, space.id);
    for (const status of ['merged', 'archived']) {
      expect(policyOf(cr, row, { id: crId, space_id: space.id, status })).toEqual({ refusal: SyncRefusal.closed });
    }
    expect(policyOf(cr, row, { id: crId, space_id: space.id, status: 'open' })).toEqual({ refusal: undefined });
    expect(policyOf(cr, row, { id: crId, space_id: space.id, status: 'draft' })).toEqual({ refusal: undefined });
    const otherCr = await getChangeRequestForSync(db, otherCrId);
    expect(() => policyOf(cr, row, otherCr)).toThrow(SyncCloseReason.noAccess);
    expect(await refusal(loadRoomPolicy(db, room(changeRequestRoom(space.id, otherCrId))))).toBe(
      refused(SyncClose.notFound, SyncCloseReason.noAccess),
    );
    expect(() => policyOf(cr, row, undefined)).toThrow(SyncCloseReason.noAccess);
    expect(await refusal(loadRoomPolicy(db, room(spaceRoom('AAAAAAAAAAAAAAAAAAAAAA'))))).toBe(
      refused(SyncClose.notFound, SyncCloseReason.spaceDeleted),
    );
  });

  it('refuses writes below the edit role, then whatever the branch refuses', () => {
    for (const role of ['read', 'comment'] as const) {
      expect(writeRefusal(role, {})).toBe(SyncRefusal.readOnly);
      expect(writeRefusal(role, { refusal: SyncRefusal.locked })).toBe(SyncRefusal.readOnly);
    }
    for (const role of ['edit', 'review', 'create', 'admin'] as const) {
      expect(writeRefusal(role, {})).toBeUndefined();
      expect(writeRefusal(role, { refusal: SyncRefusal.locked })).toBe(SyncRefusal.locked);
    }
  });
});

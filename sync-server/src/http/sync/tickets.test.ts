import { spaceRoom } from '@quire/shared/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackgroundJobs } from '../../core/platform/jobs';
import { spendSyncTicket } from '../../store/syncRooms';
import { TestServer } from '../../testing/harness';
import { verifyTicket } from '../../core/sync/tickets';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

async function space(token: string, orgId: string): Promise<string> {
  const res = await t.post(`/v1/orgs/${orgId}/spaces`, token, { title: 'Docs' });
  return res.body.id;
}

describe('POST /v1/sync/tickets', () => {
  it('hands a reader a ticket for one room, valid for a minute', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const room = spaceRoom(await space(admin.token, orgId));
    const res = await t.post('/v1/sync/tickets', members[0]!.token, { room });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'sync-ticket', room });
    const ttl = Date.parse(res.body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(61_000);
    expect(await verifyTicket(t.db, res.body.ticket)).toMatchObject({ userId: members[0]!.id, room });
  });

  it('refuses a room name of the wrong shape, and unknown fields', async () => {
    const u = await t.user();
    const bad = await t.post('/v1/sync/tickets', u.token, { room: 'spaces' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(
      'Invalid body field "room": must be spaces/<spaceId> or spaces/<spaceId>/change-requests/<changeRequestId>.',
    );
    const extra = await t.post('/v1/sync/tickets', u.token, { room: 'spaces/AAAAAAAAAAAAAAAAAAAAAA', ttl: 5 });
    expect(extra.status).toBe(400);
    expect(extra.body.error.message).toBe('Unknown body field: "ttl".');
  });

  it('answers 404 to a caller without access, as for an unknown space or change request', async () => {
    const { orgId, admin } = await t.org();
    const spaceId = await space(admin.token, orgId);
    const stranger = await t.user();
    const foreign = await t.post('/v1/sync/tickets', stranger.token, { room: spaceRoom(spaceId) });
    const unknown = await t.post('/v1/sync/tickets', stranger.token, { room: spaceRoom('AAAAAAAAAAAAAAAAAAAAAA') });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 404, message: 'No matching space found.' } });
    expect(unknown.body).toEqual(foreign.body);
    const cr = await t.post('/v1/sync/tickets', admin.token, { room: `${spaceRoom(spaceId)}/change-requests/AAAAAAAAAAAAAAAAAAAAAA` });
    expect(cr.status).toBe(404);
    expect(cr.body.error.message).toBe('No matching change request found.');
    const anonymous = await t.request('POST', '/v1/sync/tickets', { body: { room: spaceRoom(spaceId) } });
    expect(anonymous.status).toBe(401);
  });

  it('gives every ticket an id of its own, spent once; the uses of long-expired tickets are dropped', async () => {
    const { orgId, admin } = await t.org();
    const room = spaceRoom(await space(admin.token, orgId));
    const [a, b] = await Promise.all(
      [1, 2].map(async () => verifyTicket(t.db, (await t.post('/v1/sync/tickets', admin.token, { room })).body.ticket)),
    );
    expect(a?.id).toMatch(/^[\w-]{20,}$/);
    expect(a?.id).not.toBe(b?.id);
    expect(await spendSyncTicket(t.db, a!.id, a!.expiresAt)).toBe(true);
    expect(await spendSyncTicket(t.db, a!.id, a!.expiresAt)).toBe(false);

    const longAgo = new Date(Date.now() - 60 * 60 * 1000);
    expect(await spendSyncTicket(t.db, b!.id, longAgo)).toBe(true);
    await runBackgroundJobs(t.db, t.deps.log);
    // Dropped: only a ticket that expired long ago could be presented again, and it is refused as expired.
    expect(await spendSyncTicket(t.db, b!.id, longAgo)).toBe(true);
    // Kept until its ticket has expired.
    expect(await spendSyncTicket(t.db, a!.id, a!.expiresAt)).toBe(false);
  });
});

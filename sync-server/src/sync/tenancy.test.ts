import { SyncClose, SyncCloseReason, spaceRoom } from '@quire/shared/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LiveServer, nextClose, rawClient, synced } from '../testing/syncClients';

/** What an organization's settings and the way a credential travels decide, on sync as on REST. */
let s: LiveServer;
const UPGRADES_PER_MINUTE = 40;
beforeAll(async () => {
  s = await LiveServer.start({ sync: { recheckMs: 200, upgradesPerMinute: UPGRADES_PER_MINUTE } });
});
afterAll(async () => s?.close());

async function fixture() {
  const { orgId, admin, members } = await s.t.org(['edit']);
  const spaceId = await s.space(orgId, admin.token);
  return { orgId, admin, writer: members[0] as (typeof members)[number], spaceId, room: spaceRoom(spaceId) };
}

const enforceSso = (orgId: string) => s.db.query('UPDATE organizations SET sso = true WHERE id = $1', [orgId]);

describe('SSO enforcement on sync', () => {
  it('keeps out a token that did not come from a sign-in, exactly where REST does', async () => {
    const { orgId, writer, spaceId, room } = await fixture();
    await enforceSso(orgId);
    const rest = await s.t.get(`/v1/spaces/${spaceId}`, writer.token);
    expect(rest.status).not.toBe(200);
    const ws = await rawClient(`${s.wsUrl}/${room}`, writer.token);
    expect(await ws.closed).toEqual({ code: SyncClose.notFound, reason: SyncCloseReason.noAccess });
    expect(ws.messages).toEqual([]);
  });

  it('ends a live connection at the next recheck once the organization enforces SSO', async () => {
    const { orgId, writer, room } = await fixture();
    const p = s.provider(room, writer.token);
    await synced(p);
    const closed = nextClose(p);
    await enforceSso(orgId);
    expect(await closed).toEqual({ code: SyncClose.notFound, reason: SyncCloseReason.noAccess });
    p.destroy();
  });
});

describe('credentials in the URL', () => {
  it('refuses a full API token in ?token= and accepts a ticket there', async () => {
    const { admin, room } = await fixture();
    const withToken = await rawClient(`${s.wsUrl}/${room}?token=${admin.token}`);
    expect(await withToken.closed).toEqual({ code: SyncClose.unauthenticated, reason: SyncCloseReason.tokenInUrl });
    expect(withToken.messages).toEqual([]);
    const ticket = await s.t.post('/v1/sync/tickets', admin.token, { room });
    const p = s.provider(room, ticket.body.ticket, { viaQuery: true });
    await synced(p);
    p.destroy();
  });
});

describe('upgrade rate limit', () => {
  it('answers 429 with Retry-After to an address that opens too many connections in a minute', async () => {
    const { room } = await fixture();
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < UPGRADES_PER_MINUTE + 5; i++) {
      statuses.push(
        await new Promise<number>((resolve) => {
          // No credential: each upgrade is refused after it opens, cheaply, unless the limit answers first.
          const ws = new WebSocket(`${s.wsUrl}/${room}`);
          ws.on('unexpected-response', (_req, res) => {
            retryAfter ??= res.headers['retry-after'];
            resolve(res.statusCode ?? 0);
            ws.terminate();
          });
          ws.on('open', () => resolve(101));
          ws.on('error', () => {});
        }),
      );
    }
    expect(statuses.filter((x) => x === 101).length).toBeLessThanOrEqual(UPGRADES_PER_MINUTE);
    expect(statuses.at(-1)).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

describe('Idempotency-Key', () => {
  it('answers a retry with the first answer and does the work once', async () => {
    const { orgId, admin } = await t.org();
    const send = () =>
      t.request('POST', `/v1/orgs/${orgId}/collections`, {
        token: admin.token,
        body: { title: 'Once' },
        headers: { 'idempotency-key': 'k-1' },
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const list = await t.get(`/v1/orgs/${orgId}/collections`, admin.token);
    expect(list.body.items.filter((c: { title: string }) => c.title === 'Once')).toHaveLength(1);
  });

  it('refuses the same key with another body with 422', async () => {
    const { orgId, admin } = await t.org();
    const headers = { 'idempotency-key': 'k-2' };
    await t.request('POST', `/v1/orgs/${orgId}/collections`, { token: admin.token, body: { title: 'A' }, headers });
    const other = await t.request('POST', `/v1/orgs/${orgId}/collections`, { token: admin.token, body: { title: 'B' }, headers });
    expect(other.status).toBe(422);
    expect(other.body.error.message).toMatch(/different request/);
  });

  it('replays a refusal too, and keys are per user', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const headers = { 'idempotency-key': 'shared-key' };
    const denied = await t.request('POST', `/v1/orgs/${orgId}/collections`, { token: members[0]!.token, body: { title: 'X' }, headers });
    expect(denied.status).toBe(403);
    const again = await t.request('POST', `/v1/orgs/${orgId}/collections`, { token: members[0]!.token, body: { title: 'X' }, headers });
    expect(again.status).toBe(403);
    const adminUse = await t.request('POST', `/v1/orgs/${orgId}/collections`, { token: admin.token, body: { title: 'X' }, headers });
    expect(adminUse.status).toBe(200);
  });

  it('refuses a malformed key', async () => {
    const { orgId, admin } = await t.org();
    const res = await t.request('POST', `/v1/orgs/${orgId}/collections`, {
      token: admin.token,
      body: { title: 'A' },
      headers: { 'idempotency-key': 'é' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/Idempotency-Key/);
  });
});

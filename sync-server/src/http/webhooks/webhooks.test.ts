import { createHmac } from 'node:crypto';
import * as Y from 'yjs';
import { createPage, updatePage } from '@quire/shared/content/pages';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runBackgroundJobs } from '../../core/platform/jobs';
import { WebhookDispatcher } from '../../core/webhooks/dispatcher';
import { verifySignature } from '../../core/webhooks/signing';
import { TestServer, type TestUser } from '../../testing/harness';
import { editLive } from '../../testing/testEdits';
import { WebhookReceiver } from '../../testing/webhookReceiver';

let t: TestServer;
let receiver: WebhookReceiver;
let orgId: string;
let admin: TestUser;
let editor: TestUser;
/** How far the sender's clock is ahead of real time: tests move it instead of waiting. */
let skew = 0;
const now = () => Date.now() + skew;
const advance = (ms: number) => {
  skew += ms;
};
let sender: WebhookDispatcher;

const RETRY_BASE_MS = 1000;
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  t = await TestServer.start({ allowPrivateFetch: true, webhooks: { timeoutMs: 10_000, retryBaseMs: RETRY_BASE_MS } });
  receiver = await WebhookReceiver.start();
  const org = await t.org(['edit']);
  orgId = org.orgId;
  admin = org.admin;
  editor = org.members[0] as TestUser;
  sender = new WebhookDispatcher({
    db: t.db,
    log: t.deps.log,
    timeoutMs: 10_000,
    retryBaseMs: RETRY_BASE_MS,
    allowPrivate: true,
    now: () => new Date(now()),
  });
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});
afterEach(async () => {
  // Each test starts with no webhook and an empty queue, whatever the last one left.
  for (const w of (await t.get(hooks(), admin.token)).body.items) await t.delete(`${hooks()}/${w.id}`, admin.token);
});
beforeEach(() => {
  skew = 0;
  t.deps.config.allowPrivateFetch = true;
  receiver.answer = () => 200;
  receiver.received.length = 0;
});

const hooks = () => `/v1/orgs/${orgId}/webhooks`;

async function space(title = 'Docs'): Promise<string> {
  const res = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function webhook(body: Record<string, unknown> = {}) {
  const res = await t.post(hooks(), admin.token, { url: receiver.url, events: ['change_request.merged'], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  receiver.secret = res.body.secret;
  return res.body as { id: string; secret: string };
}

/** Sends what is due, then moves the clock past every retry's wait and sends again, until nothing is left. */
async function drain(rounds = 6) {
  for (let i = 0; i < rounds; i++) {
    await sender.runOnce();
    advance(2 ** i * RETRY_BASE_MS * 1.3);
  }
  await sender.runOnce();
}

describe('webhook administration', () => {
  it('creates a webhook whose answer alone carries the signing secret; reads, lists, changes and deletes it', async () => {
    const created = await t.post(hooks(), admin.token, {
      url: 'https://hooks.example.com/quire',
      events: ['page.content_changed', 'change_request.merged'],
      description: 'CI',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'webhook',
      url: 'https://hooks.example.com/quire',
      events: ['page.content_changed', 'change_request.merged'],
      spaces: [],
      enabled: true,
      description: 'CI',
      urls: { location: `http://quire.test/v1/orgs/${orgId}/webhooks/${created.body.id}` },
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    const path = `${hooks()}/${created.body.id}`;
    const read = await t.get(path, admin.token);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    expect(JSON.stringify((await t.get(hooks(), admin.token)).body)).not.toContain(created.body.secret);
    expect((await t.get(hooks(), admin.token)).body.items.map((w: { id: string }) => w.id)).toContain(created.body.id);

    const changed = await t.patch(path, admin.token, { enabled: false, events: ['comment.created'] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ enabled: false, events: ['comment.created'] });
    expect((await t.delete(path, admin.token)).status).toBe(204);
    expect((await t.get(path, admin.token)).status).toBe(404);
    expect((await t.delete(path, admin.token)).status).toBe(204);
  });

  it('is for admins of the organization alone: a member is refused, another organization sees nothing', async () => {
    const created = await webhook();
    const path = `${hooks()}/${created.id}`;
    expect((await t.get(hooks(), editor.token)).status).toBe(403);
    expect((await t.post(hooks(), editor.token, { url: receiver.url, events: ['comment.created'] })).status).toBe(403);
    expect((await t.get(path, editor.token)).status).toBe(403);
    expect((await t.patch(path, editor.token, { enabled: false })).status).toBe(403);
    expect((await t.get(`${path}/deliveries`, editor.token)).status).toBe(403);

    const other = await t.org();
    for (const [method, p, body] of [
      ['GET', hooks()],
      ['POST', hooks(), { url: receiver.url, events: ['comment.created'] }],
      ['GET', path],
      ['PATCH', path, { enabled: false }],
      ['GET', `${path}/deliveries`],
    ] as const) {
      const res = await t.request(method, p, { token: other.admin.token, body });
      expect(res.status, `${method} ${p}`).toBe(404);
    }
    // Another organization's admin cannot delete it either: 204 as for any unknown id, and it stays.
    expect((await t.delete(path, other.admin.token)).status).toBe(204);
    expect((await t.get(path, admin.token)).status).toBe(200);
    // Nor reach it under their own organization.
    expect((await t.get(`/v1/orgs/${other.orgId}/webhooks/${created.id}`, other.admin.token)).status).toBe(404);
    await t.delete(path, admin.token);
  });

  it('answers 400 naming the field for bad input', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ events: ['comment.created'] }, 'url'],
      [{ url: 'ftp://example.com/x', events: ['comment.created'] }, 'url'],
      [{ url: 'https://example.com/x', events: [] }, 'events'],
      [{ url: 'https://example.com/x', events: ['page.deleted'] }, 'events'],
      [{ url: 'https://example.com/x', events: ['comment.created'], spaces: ['not an id!'] }, 'spaces'],
      [{ url: 'https://example.com/x', events: ['comment.created'], secret: 'mine' }, 'secret'],
    ];
    for (const [body, field] of cases) {
      const res = await t.post(hooks(), admin.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    const hook = await webhook();
    const patch = await t.patch(`${hooks()}/${hook.id}`, admin.token, {});
    expect(patch.status).toBe(400);
    expect((await t.patch(`${hooks()}/${hook.id}`, admin.token, { enabled: 'yes' })).body.error.message).toContain('enabled');
    expect((await t.get(`${hooks()}/${hook.id}/deliveries?limit=0`, admin.token)).body.error.message).toContain('limit');
    // A space of another organization is unknown here.
    const other = await t.org();
    const foreign = await t.post(`/v1/orgs/${other.orgId}/spaces`, other.admin.token, { title: 'Theirs' });
    expect((await t.post(hooks(), admin.token, { url: receiver.url, events: ['comment.created'], spaces: [foreign.body.id] })).status).toBe(
      404,
    );
    await t.delete(`${hooks()}/${hook.id}`, admin.token);
  });

  it('refuses a loopback or private target unless ALLOW_PRIVATE_FETCH is set', async () => {
    t.deps.config.allowPrivateFetch = false;
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost:8080/x',
      'http://10.0.0.5/x',
      'http://[::1]/x',
      'http://169.254.169.254/latest',
    ]) {
      const res = await t.post(hooks(), admin.token, { url, events: ['comment.created'] });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message).toMatch(/"url".*ALLOW_PRIVATE_FETCH/);
    }
    // And a webhook made while it was allowed is not delivered once it is not.
    t.deps.config.allowPrivateFetch = true;
    const hook = await webhook({ events: ['comment.created'] });
    const guarded = new WebhookDispatcher({
      db: t.db,
      log: t.deps.log,
      timeoutMs: 10_000,
      retryBaseMs: 1000,
      allowPrivate: false,
      now: () => new Date(now()),
    });
    const s = await space('Private target');
    await t.post(`/v1/spaces/${s}/comments`, admin.token, { body: { markdown: 'hello' } });
    await guarded.runOnce();
    expect(receiver.received).toHaveLength(0);
    const deliveries = await t.get(`${hooks()}/${hook.id}/deliveries`, admin.token);
    expect(deliveries.body.items[0].attempts[0].error).toMatch(/^REFUSED/);
    await t.delete(`${hooks()}/${hook.id}`, admin.token);
    await sender.runOnce();
  });
});

describe('webhook deliveries', () => {
  it('delivers every event kind once, signed, after retrying a receiver that failed first', async () => {
    const hook = await webhook({
      events: [
        'page.content_changed',
        'change_request.created',
        'change_request.updated',
        'change_request.merged',
        'change_request.closed',
        'comment.created',
        'comment.resolved',
        'site.published',
      ],
    });
    // Every event's first attempt gets a 500.
    receiver.answer = ({ attempt }) => (attempt === 0 ? 500 : 200);
    const s = await space('Events');
    const cr = (await t.post(`/v1/spaces/${s}/change-requests`, editor.token, { subject: 'Guide' })).body;
    expect((await t.post(`/v1/spaces/${s}/content/template`, editor.token, { id: 'getting-started', changeRequestId: cr.id })).status).toBe(
      204,
    );
    expect((await t.patch(`/v1/spaces/${s}/change-requests/${cr.id}`, editor.token, { subject: 'Guide, first part' })).status).toBe(200);
    expect((await t.post(`/v1/spaces/${s}/change-requests/${cr.id}/merge`, admin.token)).status).toBe(200);
    const closing = (await t.post(`/v1/spaces/${s}/change-requests`, editor.token, { subject: 'Abandoned' })).body;
    expect((await t.patch(`/v1/spaces/${s}/change-requests/${closing.id}`, editor.token, { status: 'archived' })).status).toBe(200);
    const comment = (await t.post(`/v1/spaces/${s}/comments`, editor.token, { body: { markdown: 'Looks good' } })).body;
    expect((await t.put(`/v1/spaces/${s}/comments/${comment.id}`, admin.token, { resolved: true })).status).toBe(200);
    const site = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Docs', spaces: [s] })).body;
    expect((await t.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`, admin.token)).status).toBe(200);
    // Publishing what is published already is no new event.
    await t.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`, admin.token);

    await drain();
    const accepted = receiver.accepted();
    const types = accepted.map((r) => r.payload.type).sort();
    expect(types).toEqual(
      [
        'change_request.closed',
        'change_request.created',
        'change_request.created',
        'change_request.merged',
        'change_request.updated',
        'comment.created',
        'comment.resolved',
        // the template written into the change request, and the merge into main
        'page.content_changed',
        'page.content_changed',
        'site.published',
      ].sort(),
    );
    // Each event reached the receiver once and only once after the failures.
    expect(new Set(accepted.map((r) => r.payload.id)).size).toBe(accepted.length);
    expect(receiver.received.filter((r) => r.answered === 500)).toHaveLength(accepted.length);
    for (const r of receiver.received) {
      expect(r.verified, r.payload.type).toBe(true);
      expect(r.headers['quire-event']).toBe(r.payload.type);
      expect(r.headers['content-type']).toBe('application/json');
    }

    const merged = accepted.find((r) => r.payload.type === 'change_request.merged')?.payload as any;
    expect(merged).toMatchObject({
      object: 'webhook-event',
      organization: { id: orgId, url: `http://quire.test/v1/orgs/${orgId}` },
      space: { id: s, url: `http://quire.test/v1/spaces/${s}` },
      changeRequest: { id: cr.id, number: cr.number, url: `http://quire.test/v1/spaces/${s}/change-requests/${cr.id}` },
      revision: { id: expect.any(String) },
      data: { status: 'merged' },
    });
    // The merge's revision is main's new revision.
    expect(merged.revision.id).toBe((await t.get(`/v1/spaces/${s}`, admin.token)).body.revision);
    const mainChange = accepted.find((r) => r.payload.type === 'page.content_changed' && !r.payload.changeRequest)?.payload as any;
    expect(mainChange.revision.id).toBe(merged.revision.id);
    expect(mainChange.data.pages.length).toBeGreaterThan(0);
    const page = await t.get(mainChange.data.pages[0].url.replace('http://quire.test', ''), admin.token);
    expect(page.status).toBe(200);
    const resolved = accepted.find((r) => r.payload.type === 'comment.resolved')?.payload as any;
    expect(resolved.data.comment).toEqual({ id: comment.id, url: `http://quire.test/v1/spaces/${s}/comments/${comment.id}` });
    const published = accepted.find((r) => r.payload.type === 'site.published')?.payload as any;
    expect(published).toMatchObject({ space: null, data: { site: { id: site.id } } });

    // Attempts are listed with their answers.
    const list = await t.get(`${hooks()}/${hook.id}/deliveries?limit=1000`, admin.token);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(accepted.length);
    for (const d of list.body.items) {
      expect(d).toMatchObject({ object: 'webhook-delivery', status: 'delivered', responseStatus: 200 });
      expect(
        d.attempts.map((a: { responseStatus: number }) => a.responseStatus),
        JSON.stringify(d.attempts),
      ).toEqual([500, 200]);
    }
    await t.delete(`${hooks()}/${hook.id}`, admin.token);
  });

  it('signs each delivery as documented: hex HMAC-SHA256 of "<t>.<raw body>" keyed with the secret, t in unix seconds', async () => {
    const hook = await webhook({ events: ['change_request.created'] });
    const s = await space('Signed');
    // Characters outside ASCII: the signature covers the bytes sent, as UTF-8.
    expect((await t.post(`/v1/spaces/${s}/change-requests`, editor.token, { subject: 'Café ✓ “signed” 😀' })).status).toBe(200);
    expect((await t.post(`/v1/spaces/${s}/change-requests`, editor.token, { subject: 'second' })).status).toBe(200);
    await drain();
    const received = receiver.accepted();
    expect(received).toHaveLength(2);
    expect(received.some((r) => r.body.includes('Café ✓ “signed” 😀'))).toBe(true);
    for (const r of received) {
      const header = String(r.headers['quire-signature']);
      const parts = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      expect(parts, header).not.toBeNull();
      const [, t, v1] = parts as unknown as [string, string, string];
      expect(Math.abs(Number(t) - Math.floor(now() / 1000))).toBeLessThanOrEqual(300);
      const raw = Buffer.from(r.body, 'utf8');
      const expected = createHmac('sha256', hook.secret).update(`${t}.`).update(raw).digest('hex');
      expect(v1).toBe(expected);
      // Nothing else verifies: another secret, another timestamp, or another body.
      expect(createHmac('sha256', `${hook.secret}x`).update(`${t}.`).update(raw).digest('hex')).not.toBe(v1);
      expect(
        createHmac('sha256', hook.secret)
          .update(`${Number(t) + 1}.`)
          .update(raw)
          .digest('hex'),
      ).not.toBe(v1);
      expect(createHmac('sha256', hook.secret).update(`${t}.`).update(`${r.body} `).digest('hex')).not.toBe(v1);
    }
  });

  it('cuts one content event per revision of live edits, not one per update', async () => {
    const hook = await webhook({ events: ['page.content_changed'] });
    const s = await space('Live');
    // Eleven updates in the log, as eleven keystrokes would be; one revision once they go quiet.
    await editLive(t.db, { spaceId: s }, (doc: Y.Doc) => {
      const id = createPage(doc, { title: '' });
      let title = '';
      for (const ch of 'hello world') updatePage(doc, id, { title: (title += ch) });
    });
    await sender.runOnce();
    expect(receiver.accepted().map((r) => r.payload.type)).toEqual(['page.content_changed']);
    await t.delete(`${hooks()}/${hook.id}`, admin.token);
  });

  it('sends only the events and spaces a webhook asks for', async () => {
    const a = await space('Watched');
    const b = await space('Not watched');
    const hook = await webhook({ events: ['comment.created'], spaces: [a] });
    await t.post(`/v1/spaces/${b}/comments`, editor.token, { body: { markdown: 'elsewhere' } });
    await t.post(`/v1/spaces/${a}/change-requests`, editor.token, { subject: 'not asked for' });
    const mine = (await t.post(`/v1/spaces/${a}/comments`, editor.token, { body: { markdown: 'here' } })).body;
    await sender.runOnce();
    expect(receiver.accepted().map((r) => (r.payload as any).data.comment.id)).toEqual([mine.id]);
    await t.delete(`${hooks()}/${hook.id}`, admin.token);
  });

  it('waits longer after each failure, and turns the webhook off after a day of failures', async () => {
    const hook = await webhook({ events: ['comment.created'] });
    receiver.answer = () => 503;
    const s = await space('Failing');
    await t.post(`/v1/spaces/${s}/comments`, editor.token, { body: { markdown: 'one' } });
    await sender.runOnce();
    expect(receiver.received).toHaveLength(1);
    // Not due again at once.
    await sender.runOnce();
    expect(receiver.received).toHaveLength(1);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const d = (await t.get(`${hooks()}/${hook.id}/deliveries`, admin.token)).body.items[0];
      waits.push(Date.parse(d.nextAttemptAt) - now());
      advance(Date.parse(d.nextAttemptAt) - now());
      await sender.runOnce();
    }
    expect(receiver.received).toHaveLength(5);
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThan((waits[i - 1] as number) * 1.5);
    expect((await t.get(`${hooks()}/${hook.id}`, admin.token)).body).toMatchObject({ enabled: true, failingSince: expect.any(String) });

    // A day later, still failing: turned off, and nothing more is sent.
    advance(24 * HOUR);
    await sender.runOnce();
    const off = (await t.get(`${hooks()}/${hook.id}`, admin.token)).body;
    expect(off).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('a day') });
    const d = (await t.get(`${hooks()}/${hook.id}/deliveries`, admin.token)).body.items[0];
    expect(d).toMatchObject({ status: 'failed', responseStatus: 503 });
    await t.post(`/v1/spaces/${s}/comments`, editor.token, { body: { markdown: 'two' } });
    advance(HOUR);
    const before = receiver.received.length;
    await sender.runOnce();
    expect(receiver.received).toHaveLength(before);
    expect((await t.post(`${hooks()}/${hook.id}/deliveries/${d.id}/redeliver`, admin.token)).status).toBe(409);

    // Turned on again, it starts afresh.
    receiver.answer = () => 200;
    expect((await t.patch(`${hooks()}/${hook.id}`, admin.token, { enabled: true })).body).not.toHaveProperty('failingSince');
    await t.post(`/v1/spaces/${s}/comments`, editor.token, { body: { markdown: 'three' } });
    await sender.runOnce();
    expect(receiver.accepted()).toHaveLength(1);
    await t.delete(`${hooks()}/${hook.id}`, admin.token);
  });

  it('sends a delivery again on request, with the same event id and a fresh signature', async () => {
    const hook = await webhook({ events: ['comment.created'] });
    const s = await space('Again');
    await t.post(`/v1/spaces/${s}/comments`, editor.token, { body: { markdown: 'again' } });
    await sender.runOnce();
    const first = (await t.get(`${hooks()}/${hook.id}/deliveries`, admin.token)).body.items[0];
    const again = await t.post(`${hooks()}/${hook.id}/deliveries/${first.id}/redeliver`, admin.token);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ status: 'pending', eventId: first.eventId, redeliveryOf: first.id });
    advance(1000);
    await sender.runOnce();
    expect(receiver.accepted().map((r) => r.payload.id)).toEqual([first.eventId, first.eventId]);
    expect(receiver.accepted()[1]?.body).toBe(receiver.accepted()[0]?.body);
    // The delivery shows the very bytes that were signed and sent.
    expect(first.body).toBe(receiver.accepted()[0]?.body);
    expect(receiver.accepted()[1]?.headers['quire-delivery']).toBe(again.body.id);
    expect(
      verifySignature(
        hook.secret,
        String(receiver.accepted()[1]?.headers['quire-signature']),
        receiver.accepted()[1]?.body ?? '',
        Math.floor(now() / 1000),
      ),
    ).toBe(true);
    // A wrong secret or a changed body does not verify.
    expect(
      verifySignature(
        'whsec_other',
        String(receiver.accepted()[1]?.headers['quire-signature']),
        receiver.accepted()[1]?.body ?? '',
        Math.floor(now() / 1000),
      ),
    ).toBe(false);

    // The deliveries list pages like every list, newest first.
    const page1 = await t.get(`${hooks()}/${hook.id}/deliveries?limit=1`, admin.token);
    expect(page1.body).toMatchObject({ count: 2, items: [{ id: again.body.id }], next: { page: expect.any(String) } });
    const page2 = await t.get(`${hooks()}/${hook.id}/deliveries?limit=1&page=${page1.body.next.page}`, admin.token);
    expect(page2.body.items.map((d: { id: string }) => d.id)).toEqual([first.id]);
    expect(page2.body.next).toBeUndefined();
    expect((await t.post(`${hooks()}/${hook.id}/deliveries/AAAAAAAAAAAAAAAAAAAAAA/redeliver`, admin.token)).status).toBe(404);
    await t.delete(`${hooks()}/${hook.id}`, admin.token);
  });

  it('keeps finished deliveries for 30 days, and pending ones until they are sent', async () => {
    const hook = await webhook({ events: ['comment.created'] });
    const s = await space('Old');
    await t.post(`/v1/spaces/${s}/comments`, editor.token, { body: { markdown: 'old' } });
    await sender.runOnce();
    receiver.answer = () => 500;
    await t.post(`/v1/spaces/${s}/comments`, editor.token, { body: { markdown: 'waiting' } });
    await sender.runOnce();
    await t.db.query("UPDATE webhook_deliveries SET created_at = now() - interval '31 days' WHERE webhook_id = $1", [hook.id]);
    await runBackgroundJobs(t.db, t.deps.log);
    const left = (await t.get(`${hooks()}/${hook.id}/deliveries`, admin.token)).body.items;
    expect(left.map((d: { status: string }) => d.status)).toEqual(['pending']);
  });

  it('is in the OpenAPI document as an extension', async () => {
    const doc = (await t.get('/v1/openapi.json')).body;
    const path = doc.paths['/v1/orgs/{organizationId}/webhooks'];
    expect(path.post['x-quire-extension']).toBe(true);
    expect(path.get['x-quire-extension']).toBe(true);
    expect(doc.paths['/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries'].get['x-quire-extension']).toBe(true);
    expect(doc.components.schemas).toHaveProperty('Webhook');
  });
});

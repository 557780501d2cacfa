import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger';
import type { Db } from '../../store/db';
import { createOrg } from '../../store/organizations';
import { ensureUser } from '../../store/users';
import { type DeliveryRow, type WebhookRow, getDelivery, getWebhook, insertDeliveries, insertWebhook } from '../../store/webhooks';
import { freshTestDb } from '../../testing/databases';
import { WebhookReceiver } from '../../testing/webhookReceiver';
import { type SendResult, WebhookDispatcher, guardedSender } from './dispatcher';
import { verifySignature } from './signing';

/**
 * What one delivery attempt does with the receiver's answer: a 2xx delivers it, anything
 * else waits longer each time, and a webhook failing for a day is turned off. The queue is
 * driven with a moved clock and a stand-in receiver; the HTTP side is in
 * `http/webhooks/webhooks.test.ts`.
 */
let db: Db;
let orgId: string;
let userId: string;
const HOUR = 60 * 60 * 1000;
const BASE_MS = 1000;
const START = Date.parse('2026-03-01T12:00:00.000Z');
let clock = START;
type Sent = { url: string; body: string; headers: Record<string, string>; timeoutMs: number };
let sent: Sent[] = [];
let answer: (n: number) => SendResult = () => ({ status: 200 });

const dispatcher = () =>
  new WebhookDispatcher({
    db,
    log: createLogger('silent'),
    timeoutMs: 7000,
    retryBaseMs: BASE_MS,
    allowPrivate: false,
    now: () => new Date(clock),
    send: async (url, body, headers, timeoutMs) => {
      sent.push({ url, body, headers, timeoutMs });
      return answer(sent.length - 1);
    },
  });

beforeAll(async () => {
  db = await freshTestDb();
  const user = await ensureUser(db, `hooks-${Math.random().toString(36).slice(2, 8)}@example.com`, 'Hooks');
  userId = user.id;
  orgId = (await createOrg(db, 'Hooks', user.id)).id;
});
afterAll(async () => db?.close());
beforeEach(async () => {
  // Each test sends only its own webhook's deliveries.
  await db.query('UPDATE webhooks SET enabled = false');
  clock = START;
  sent = [];
  answer = () => ({ status: 200 });
});

async function webhook(url = 'https://user:secret@hooks.example/in'): Promise<WebhookRow> {
  return insertWebhook(db, {
    orgId,
    url,
    events: ['comment.created'],
    spaceIds: [],
    secret: 'whsec_dispatch',
    description: null,
    enabled: true,
    apiBase: 'http://quire.test',
    createdBy: userId,
  });
}

async function queue(w: WebhookRow, eventId = `evt_${Math.random().toString(36).slice(2, 10)}`): Promise<string> {
  const body = JSON.stringify({ id: eventId, type: 'comment.created' });
  const [id] = await insertDeliveries(db, [{ webhookId: w.id, eventId, event: 'comment.created', body, due: new Date(clock) }]);
  return id as string;
}

const delivery = async (w: WebhookRow, id: string) => (await getDelivery(db, w.id, id)) as DeliveryRow;
const hook = async (w: WebhookRow) => (await getWebhook(db, orgId, w.id)) as WebhookRow;

describe('a webhook delivery attempt', () => {
  it('posts the body signed, with its event and delivery ids, to the URL as given, within the timeout', async () => {
    const w = await webhook();
    const id = await queue(w, 'evt_signed');
    expect(await dispatcher().runOnce()).toBe(1);
    expect(sent).toHaveLength(1);
    const [s] = sent as [Sent];
    // The credentials in the URL are used for the delivery itself.
    expect(s.url).toBe('https://user:secret@hooks.example/in');
    expect(s.timeoutMs).toBe(7000);
    expect(s.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Quire-Webhooks',
      'quire-event': 'comment.created',
      'quire-delivery': id,
      'quire-event-id': 'evt_signed',
    });
    expect(s.headers['quire-signature']).toMatch(new RegExp(`^t=${Math.floor(START / 1000)},v1=[0-9a-f]{64}$`));
    expect(verifySignature('whsec_dispatch', s.headers['quire-signature'] as string, s.body, Math.floor(START / 1000))).toBe(true);
    expect(s.body).toBe((await delivery(w, id)).body);
    const d = await delivery(w, id);
    expect(d).toMatchObject({ status: 'delivered', response_status: 200, attempt_count: 1 });
    expect(new Date(d.delivered_at as Date).getTime()).toBe(START);
    expect(d.attempts).toEqual([{ at: new Date(START).toISOString(), responseStatus: 200, durationMs: expect.any(Number) }]);
    expect(d.attempts[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(d.attempts[0]?.durationMs).toBeLessThan(10_000);
  });

  it('takes any 2xx as delivered, and 1xx, 3xx, 4xx and 5xx as failures naming the answer', async () => {
    const w = await webhook();
    for (const [status, outcome] of [
      [200, 'delivered'],
      [204, 'delivered'],
      [299, 'delivered'],
      [199, 'pending'],
      [300, 'pending'],
      [302, 'pending'],
      [410, 'pending'],
      [500, 'pending'],
    ] as const) {
      answer = () => ({ status });
      const id = await queue(w);
      await dispatcher().runOnce();
      const d = await delivery(w, id);
      expect(d.status, String(status)).toBe(outcome);
      expect(d.response_status).toBe(status);
      if (status >= 300) expect(d.attempts[0]?.error).toBe(`The receiver answered ${status}.`);
      else expect(d.attempts[0]).not.toHaveProperty('error');
    }
  });

  it('records why there was no answer', async () => {
    const w = await webhook();
    answer = () => ({ error: 'TIMEOUT: no answer within 7000 ms' });
    const id = await queue(w);
    await dispatcher().runOnce();
    const d = await delivery(w, id);
    expect(d).toMatchObject({ status: 'pending', response_status: null });
    expect(d.attempts[0]).toMatchObject({ error: 'TIMEOUT: no answer within 7000 ms' });
    expect(d.attempts[0]).not.toHaveProperty('responseStatus');
    expect((await hook(w)).failing_since?.getTime()).toBe(START);
  });

  it('waits the base after the first failure and about twice as long after each next one, then delivers and forgets the failures', async () => {
    const w = await webhook();
    answer = (n) => (n < 3 ? { status: 503 } : { status: 200 });
    const id = await queue(w);
    const sender = dispatcher();
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      await sender.runOnce();
      const d = await delivery(w, id);
      expect(d.status).toBe('pending');
      const wait = new Date(d.next_attempt_at).getTime() - clock;
      waits.push(wait);
      // Not due again before the wait is over.
      clock += wait - 1;
      expect(await sender.runOnce()).toBe(0);
      clock += 1;
    }
    expect(waits[0]).toBeGreaterThanOrEqual(BASE_MS);
    expect(waits[0]).toBeLessThanOrEqual(BASE_MS * 1.2);
    expect(waits[1]).toBeGreaterThanOrEqual(2 * BASE_MS);
    expect(waits[1]).toBeLessThanOrEqual(2 * BASE_MS * 1.2);
    expect(waits[2]).toBeGreaterThanOrEqual(4 * BASE_MS);
    expect(waits[2]).toBeLessThanOrEqual(4 * BASE_MS * 1.2);
    expect((await hook(w)).failing_since?.getTime()).toBe(START);
    expect(await sender.runOnce()).toBe(1);
    expect(await delivery(w, id)).toMatchObject({ status: 'delivered', attempt_count: 4 });
    expect((await hook(w)).failing_since).toBeNull();
  });

  it('turns a webhook off once it has failed for a day, failing what is left to send', async () => {
    const w = await webhook();
    answer = () => ({ status: 500 });
    const sender = dispatcher();
    await queue(w);
    await sender.runOnce();
    expect((await hook(w)).failing_since?.getTime()).toBe(START);
    // Just under a day of failures: still on, the new delivery waits for its retry.
    clock = START + 24 * HOUR - 1;
    const almost = await queue(w);
    await sender.runOnce();
    expect(await hook(w)).toMatchObject({ enabled: true, disabled_reason: null });
    expect((await delivery(w, almost)).status).toBe('pending');
    // A day to the millisecond.
    clock = START + 24 * HOUR;
    const last = await queue(w);
    await sender.runOnce();
    const off = await hook(w);
    expect(off.enabled).toBe(false);
    expect(off.disabled_reason).toBe(`Deliveries failed for a day (since ${new Date(START).toISOString()}); turn it on again to resume.`);
    expect(await delivery(w, last)).toMatchObject({ status: 'failed', response_status: 500, attempt_count: 1 });
    expect((await delivery(w, almost)).status).toBe('failed');
    clock += HOUR;
    const count = sent.length;
    await queue(w);
    expect(await sender.runOnce()).toBe(0);
    expect(sent).toHaveLength(count);
  });

  it('gives up on a delivery a day old without turning off a webhook that failed only lately', async () => {
    const w = await webhook();
    const old = await queue(w);
    // Something else kept it from being sent (the webhook off, the server down) for a day.
    clock = START + 24 * HOUR;
    answer = () => ({ status: 500 });
    await dispatcher().runOnce();
    expect(await delivery(w, old)).toMatchObject({ status: 'failed', attempt_count: 1 });
    expect(await hook(w)).toMatchObject({ enabled: true, disabled_reason: null });
    // One not yet a day old is tried again.
    const young = await queue(w);
    clock += 24 * HOUR - 1;
    await dispatcher().runOnce();
    expect((await delivery(w, young)).status).toBe('pending');
  });

  it('leaves a delivery being sent to its sender until the timeout and more has passed', async () => {
    const w = await webhook();
    const id = await queue(w);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    answer = () => ({ status: 200 });
    const slow = new WebhookDispatcher({
      db,
      log: createLogger('silent'),
      timeoutMs: 7000,
      retryBaseMs: BASE_MS,
      allowPrivate: false,
      now: () => new Date(START),
      send: async () => {
        await held;
        return { status: 200 };
      },
    });
    const sending = slow.runOnce();
    while ((await delivery(w, id)).next_attempt_at.getTime() === START) await new Promise((r) => setTimeout(r, 10));
    // Another sender (another process, its clock a little ahead) does not take it meanwhile.
    clock = START + 8000;
    expect(await dispatcher().runOnce()).toBe(0);
    expect(sent).toHaveLength(0);
    release();
    expect(await sending).toBe(1);
    expect(await delivery(w, id)).toMatchObject({ status: 'delivered', attempt_count: 1 });
  });

  it('posts the signed body and headers to a real receiver', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      receiver.secret = 'whsec_dispatch';
      const body = JSON.stringify({ id: 'evt_real', type: 'comment.created' });
      const result = await guardedSender(true)(
        receiver.url,
        body,
        { 'content-type': 'application/json', 'quire-event': 'comment.created' },
        5000,
      );
      expect(result).toEqual({ status: 200 });
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]).toMatchObject({
        body,
        headers: { 'content-type': 'application/json', 'quire-event': 'comment.created' },
      });
      receiver.answer = () => 503;
      expect(await guardedSender(true)(receiver.url, body, {}, 5000)).toEqual({ status: 503 });
    } finally {
      await receiver.close();
    }
  });

  it('refuses a private target at delivery time, reporting the failure kind', async () => {
    const send = guardedSender(false);
    const result = await send('http://127.0.0.1:9/hook', '{}', { 'content-type': 'application/json' }, 2000);
    expect('error' in result && result.error).toMatch(/^REFUSED: /);
    const broken = await send('not a url', '{}', {}, 2000);
    expect('error' in broken && broken.error).toMatch(/^[A-Z_]+: /);
  });
});

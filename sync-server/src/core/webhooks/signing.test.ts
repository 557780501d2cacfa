import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DISABLE_AFTER_MS, retryDelay } from './backoff';
import { newWebhookSecret, signatureHeader, signPayload, verifySignature } from './signing';
import { refusedTarget, resolveAll } from './targets';

/**
 * What a receiver relies on to trust a delivery (the signature over the timestamp and the
 * raw body, replays refused), how long a failing receiver waits between attempts, and
 * which targets a webhook may not point at.
 */
const SECRET = 'whsec_test';
const BODY = '{"id":"evt_1","type":"comment.created","text":"Café ✓"}';
const T = 1_800_000_000;

describe('webhook signatures', () => {
  it('is the hex HMAC-SHA256 of "<t>.<body>" keyed with the secret, in the documented header', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`, 'utf8').digest('hex');
    expect(signPayload(SECRET, T, BODY)).toBe(expected);
    expect(signatureHeader(SECRET, T, BODY)).toBe(`t=${T},v1=${expected}`);
  });

  it('verifies a signature within five minutes of its timestamp, either side', () => {
    const header = signatureHeader(SECRET, T, BODY);
    expect(verifySignature(SECRET, header, BODY, T)).toBe(true);
    expect(verifySignature(SECRET, header, BODY, T + 300)).toBe(true);
    expect(verifySignature(SECRET, header, BODY, T - 300)).toBe(true);
    expect(verifySignature(SECRET, header, BODY, T + 301)).toBe(false);
    expect(verifySignature(SECRET, header, BODY, T - 301)).toBe(false);
    expect(verifySignature(SECRET, header, BODY, T + 60, 30)).toBe(false);
    expect(verifySignature(SECRET, header, BODY, T + 60, 60)).toBe(true);
  });

  it('refuses another secret, another body, another timestamp and a replayed signature under a new timestamp', () => {
    const v1 = signPayload(SECRET, T, BODY);
    expect(verifySignature('whsec_other', signatureHeader(SECRET, T, BODY), BODY, T)).toBe(false);
    expect(verifySignature(SECRET, signatureHeader(SECRET, T, BODY), `${BODY} `, T)).toBe(false);
    expect(verifySignature(SECRET, `t=${T + 1},v1=${v1}`, BODY, T)).toBe(false);
    expect(verifySignature(SECRET, `t=${T},v1=${v1}`, BODY, T)).toBe(true);
  });

  it('refuses malformed headers instead of throwing', () => {
    const v1 = signPayload(SECRET, T, BODY);
    for (const header of [
      '',
      `v1=${v1}`,
      `t=${T}`,
      `t=${T},v1=`,
      `t=abc,v1=${v1}`,
      `t=${T}.5,v1=${v1}`,
      `t=${T},v1=${v1.slice(0, 32)}`,
      `t=${T},v1=${v1}00`,
      `t=${T},v1=zz${v1.slice(2)}`,
    ]) {
      expect(verifySignature(SECRET, header, BODY, T), header).toBe(false);
    }
  });

  it('makes secrets that are prefixed, long and never the same', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });
});

describe('webhook retry waits', () => {
  const none = () => 0;
  it('waits the base after the first failure, doubling each time up to an hour', () => {
    expect(retryDelay(1, 1000, none)).toBe(1000);
    expect(retryDelay(2, 1000, none)).toBe(2000);
    expect(retryDelay(3, 1000, none)).toBe(4000);
    expect(retryDelay(12, 1000, none)).toBe(2048 * 1000);
    expect(retryDelay(13, 1000, none)).toBe(60 * 60 * 1000);
    expect(retryDelay(1000, 1000, none)).toBe(60 * 60 * 1000);
    expect(retryDelay(0, 1000, none)).toBe(1000);
    expect(retryDelay(-5, 1000, none)).toBe(1000);
  });

  it('adds up to a fifth at random so that retries spread out', () => {
    expect(retryDelay(2, 1000, () => 0.5)).toBe(2200);
    expect(retryDelay(2, 1000, () => 0.999)).toBe(2400);
    expect(retryDelay(20, 1000, () => 0.999)).toBe(Math.round(60 * 60 * 1000 * (1 + 0.999 / 5)));
    for (let i = 0; i < 50; i++) {
      const d = retryDelay(3, 1000);
      expect(d).toBeGreaterThanOrEqual(4000);
      expect(d).toBeLessThanOrEqual(4800);
    }
  });

  it('gives up on a webhook after a day', () => {
    expect(DISABLE_AFTER_MS).toBe(24 * 60 * 60 * 1000);
  });
});

describe('webhook targets', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://10.1.2.3/hook',
    'http://192.168.0.10:8080/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[fd00::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://0.0.0.0/hook',
    'http://localhost:3000/hook',
    'http://LOCALHOST/hook',
    'http://app.localhost/hook',
  ])('refuses %s, naming the host and the setting that allows it', async (url) => {
    const reason = await refusedTarget(url, false);
    expect(reason).toMatch(/^targets a loopback or private address \(.+\); set ALLOW_PRIVATE_FETCH=true on the server to allow it$/);
    expect(reason).toContain(`(${new URL(url).hostname.replace(/^\[|\]$/g, '')})`);
    expect(await refusedTarget(url, true)).toBeUndefined();
  });

  it('accepts public addresses, and names that do not resolve yet (each delivery is checked again)', async () => {
    expect(await refusedTarget('https://93.184.216.34/hook', false)).toBeUndefined();
    expect(await refusedTarget('https://[2606:2800:220:1::1]/hook', false)).toBeUndefined();
    expect(await refusedTarget('https://hooks.quire-test.invalid/hook', false)).toBeUndefined();
    expect(await refusedTarget('https://notlocalhost.invalid/hook', false)).toBeUndefined();
  });
});

describe('webhook targets by name', () => {
  const answers =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address }));

  it('refuses a name when any address it resolves to is loopback, private or metadata', async () => {
    for (const addresses of [['10.0.0.5'], ['93.184.216.34', '127.0.0.1'], ['169.254.169.254'], ['2606:2800:220:1::1', 'fd00::2']]) {
      const reason = await refusedTarget('https://hooks.example.com/in', false, answers(...addresses));
      expect(reason, String(addresses)).toBe(
        'targets a loopback or private address (hooks.example.com); set ALLOW_PRIVATE_FETCH=true on the server to allow it',
      );
    }
    expect(await refusedTarget('https://hooks.example.com/in', false, answers('93.184.216.34', '2606:2800:220:1::1'))).toBeUndefined();
    expect(await refusedTarget('https://hooks.example.com/in', true, answers('10.0.0.5'))).toBeUndefined();
  });

  it('leaves a name that does not answer in time to the check of each delivery', async () => {
    const started = Date.now();
    expect(await refusedTarget('https://slow.example.com/in', false, () => new Promise(() => {}), 50)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await refusedTarget('https://gone.example.com/in', false, () => Promise.reject(new Error('ENOTFOUND')))).toBeUndefined();
  });

  it('reads every address of a name from the system resolver', async () => {
    const addresses = await resolveAll('localhost');
    expect(Array.isArray(addresses)).toBe(true);
    expect(addresses.map((a) => a.address)).toContain('127.0.0.1');
  });
});

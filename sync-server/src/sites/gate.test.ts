import { Hono } from 'hono';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { SiteRow } from '../store/sites';
import { verifyVisitorToken } from '../core/sites/visitorAuth';
import { gate, sameSecret } from './gate';

/**
 * Who may read a published site, decided per request: the share key of a share-link site,
 * the visitor token of a visitor-auth site, and the claims adaptive content is shown for.
 */
const ROOT = '/s/org/docs';

function site(fields: Partial<SiteRow>): SiteRow {
  return {
    id: 'site-1',
    visibility: 'public',
    share_key: 'the-share-key-0123456789',
    visitor_key: 'the-visitor-signing-key-0123456789abcdef',
    adaptive_content: false,
    adaptive_schema: null,
    ...fields,
  } as SiteRow;
}

async function ask(row: SiteRow, path: string, headers: Record<string, string> = {}) {
  const app = new Hono();
  app.get('*', async (c) => c.json(await gate(c, row, ROOT)));
  const res = await app.request(`http://docs.test${path}`, { headers });
  return res.json();
}

async function token(
  row: SiteRow,
  claims: Record<string, unknown> = {},
  opts: { exp?: number; aud?: string; alg?: string; key?: string } = {},
) {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: opts.alg ?? 'HS256' })
    .setAudience(opts.aud ?? row.id)
    .setIssuedAt();
  if (opts.exp !== 0) jwt.setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 3600);
  return jwt.sign(new TextEncoder().encode(opts.key ?? row.visitor_key));
}

describe('share-link sites', () => {
  const row = site({ visibility: 'share-link' });

  it('refuses a visitor without the key as if the site did not exist', async () => {
    expect(await ask(row, `${ROOT}/`)).toEqual({ kind: 'refused', status: 404 });
  });

  it('refuses a wrong key, also one of the right length', async () => {
    expect(await ask(row, `${ROOT}/?shareKey=nope`)).toEqual({ kind: 'refused', status: 404 });
    expect(await ask(row, `${ROOT}/?shareKey=${'x'.repeat(row.share_key.length)}`)).toEqual({ kind: 'refused', status: 404 });
  });

  it('moves the right key into a cookie and sends the visitor to the same URL without it', async () => {
    const answer = await ask(row, `${ROOT}/guide?shareKey=${row.share_key}&x=1`);
    expect(answer).toEqual({
      kind: 'redirect',
      location: `${ROOT}/guide?x=1`,
      cookie: `quire_share_site-1=${row.share_key}; Path=${ROOT}; Max-Age=2592000; HttpOnly; SameSite=Lax`,
    });
  });

  it('marks the cookie Secure behind an https proxy', async () => {
    const answer = await ask(row, `${ROOT}/?shareKey=${row.share_key}`, { 'x-forwarded-proto': 'https' });
    expect(answer.cookie).toMatch(/; Secure$/);
  });

  it('opens for a visitor holding the cookie, and only with the right key in it', async () => {
    expect(await ask(row, `${ROOT}/`, { cookie: `quire_share_site-1=${row.share_key}` })).toEqual({ kind: 'open', claims: {} });
    expect(await ask(row, `${ROOT}/`, { cookie: 'quire_share_site-1=wrong' })).toEqual({ kind: 'refused', status: 404 });
    expect(await ask(row, `${ROOT}/`, { cookie: `quire_share_other=${row.share_key}` })).toEqual({ kind: 'refused', status: 404 });
  });
});

describe('visitor-auth sites', () => {
  const row = site({ visibility: 'visitor-auth' });

  it('asks a visitor without a token to sign in', async () => {
    expect(await ask(row, `${ROOT}/`)).toEqual({ kind: 'refused', status: 401 });
  });

  it('moves a valid token into a cookie that lasts as long as the token', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const jwt = await token(row, { plan: 'pro' }, { exp });
    const answer = await ask(row, `${ROOT}/page?jwt_token=${jwt}`);
    expect(answer.kind).toBe('redirect');
    expect(answer.location).toBe(`${ROOT}/page`);
    const maxAge = Number(/Max-Age=(\d+)/.exec(answer.cookie)?.[1]);
    expect(maxAge).toBeGreaterThan(590);
    expect(maxAge).toBeLessThanOrEqual(600);
  });

  it('caps the cookie at thirty days for a long-lived token', async () => {
    const jwt = await token(row, {}, { exp: Math.floor(Date.now() / 1000) + 365 * 86400 });
    expect((await ask(row, `${ROOT}/?jwt_token=${jwt}`)).cookie).toContain('Max-Age=2592000;');
  });

  it.each([
    ['signed with another key', { key: 'another-key-another-key-another-key-0000' }],
    ['for another site', { aud: 'site-2' }],
    ['expired', { exp: Math.floor(Date.now() / 1000) - 60 }],
    ['without an expiry', { exp: 0 }],
    ['signed with another algorithm', { alg: 'HS512' }],
  ])('refuses a token %s', async (_why, opts) => {
    const jwt = await token(row, {}, opts);
    expect(await ask(row, `${ROOT}/?jwt_token=${jwt}`)).toEqual({ kind: 'refused', status: 401 });
    expect(await ask(row, `${ROOT}/`, { cookie: `quire_visitor_site-1=${jwt}` })).toEqual({ kind: 'refused', status: 401 });
  });

  it('opens with the claims of the token in the cookie, registered claims left out', async () => {
    const jwt = await token(row, { plan: 'pro', region: 'eu' });
    expect(await ask(row, `${ROOT}/`, { cookie: `quire_visitor_site-1=${jwt}` })).toEqual({
      kind: 'open',
      claims: { plan: 'pro', region: 'eu' },
    });
  });
});

describe('public sites', () => {
  it('open to anyone, and ignore a token when content is not adaptive', async () => {
    const row = site({});
    expect(await ask(row, `${ROOT}/`)).toEqual({ kind: 'open', claims: {} });
    const jwt = await token(row, { plan: 'pro' });
    expect(await ask(row, `${ROOT}/?jwt_token=${jwt}`)).toEqual({ kind: 'open', claims: {} });
    expect(await ask(row, `${ROOT}/`, { cookie: `quire_visitor_site-1=${jwt}` })).toEqual({ kind: 'open', claims: {} });
  });

  it('with adaptive content, take claims from a valid token and hide the site from a forged one', async () => {
    const row = site({ adaptive_content: true });
    const jwt = await token(row, { plan: 'pro' });
    expect((await ask(row, `${ROOT}/?jwt_token=${jwt}`)).kind).toBe('redirect');
    expect(await ask(row, `${ROOT}/`, { cookie: `quire_visitor_site-1=${jwt}` })).toEqual({ kind: 'open', claims: { plan: 'pro' } });
    const forged = await token(row, { plan: 'pro' }, { key: 'forged-key-forged-key-forged-key-forged' });
    expect(await ask(row, `${ROOT}/?jwt_token=${forged}`)).toEqual({ kind: 'refused', status: 404 });
    expect(await ask(row, `${ROOT}/`, { cookie: `quire_visitor_site-1=${forged}` })).toEqual({ kind: 'open', claims: {} });
  });

  it('with an adaptive schema, keep only claims that match it', async () => {
    const schema = { type: 'object', properties: { plan: { type: 'string', enum: ['free', 'pro'] } }, required: ['plan'] };
    const row = site({ adaptive_content: true, adaptive_schema: schema });
    const good = await token(row, { plan: 'pro' });
    const bad = await token(row, { plan: 'platinum' });
    expect(await ask(row, `${ROOT}/`, { cookie: `quire_visitor_site-1=${good}` })).toEqual({ kind: 'open', claims: { plan: 'pro' } });
    expect(await ask(row, `${ROOT}/`, { cookie: `quire_visitor_site-1=${bad}` })).toEqual({ kind: 'open', claims: {} });
  });
});

describe('sameSecret', () => {
  it('is true only for equal strings', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abd')).toBe(false);
    expect(sameSecret('abc', 'abcd')).toBe(false);
    expect(sameSecret('', 'a')).toBe(false);
  });
});

describe('verifyVisitorToken', () => {
  const row = site({ visibility: 'visitor-auth' });

  it('says why a token is refused', async () => {
    expect(await verifyVisitorToken('', row)).toEqual({ ok: false, reason: 'missing or oversized token' });
    expect(await verifyVisitorToken('x'.repeat(8193), row)).toEqual({ ok: false, reason: 'missing or oversized token' });
    expect(await verifyVisitorToken('not.a.jwt', row)).toEqual({ ok: false, reason: 'invalid token' });
    expect(await verifyVisitorToken(await token(row, {}, { exp: Math.floor(Date.now() / 1000) - 60 }), row)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(await verifyVisitorToken(await token(row, {}, { alg: 'HS384' }), row)).toEqual({ ok: false, reason: 'algorithm not allowed' });
    expect(await verifyVisitorToken(await token(row, {}, { aud: 'elsewhere' }), row)).toEqual({ ok: false, reason: 'claim aud refused' });
    expect(await verifyVisitorToken(await token(row, {}, { exp: 0 }), row)).toEqual({ ok: false, reason: 'claim exp refused' });
  });

  it('accepts a token up to the limit in length and allows a few seconds of clock skew', async () => {
    const skewed = await token(row, { a: 1 }, { exp: Math.floor(Date.now() / 1000) - 2 });
    expect(await verifyVisitorToken(skewed, row)).toMatchObject({ ok: true, claims: { a: 1 } });
    const long = await token(row, { pad: 'p'.repeat(5000) });
    expect(long.length).toBeLessThanOrEqual(8192);
    expect((await verifyVisitorToken(long, row)).ok).toBe(true);
  });
});

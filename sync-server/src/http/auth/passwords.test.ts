import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../core/platform/admin';
import { s256 } from '../../core/desktopSignIn/pkce';
import { expectError } from '../../testing/apiExpect';
import { TestServer, type TestUser } from '../../testing/harness';

/**
 * People change their own password, and wrong passwords lock an address's password sign-in
 * for a while, beyond the rate limit per client address, without telling whether the
 * account exists.
 */

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'purple elephant sunrise 42';
const REDIRECT = 'http://127.0.0.1:49152/callback';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const LOCKED =
  'Too many wrong passwords for this email address: signing in with a password is paused for 15 minutes. ' +
  'Try again later, or ask an administrator of this server to set a new password.';

const postForm = (fields: Record<string, string>) =>
  t.request('POST', '/v1/auth/desktop/authorize', {
    raw: new URLSearchParams({
      redirect_uri: REDIRECT,
      code_challenge: s256(VERIFIER),
      code_challenge_method: 'S256',
      state: 'xyz-123',
      ...fields,
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
const signIn = (email: string, password: string) => postForm({ email, password });
const change = (u: TestUser, body: Record<string, unknown>) => t.request('PUT', '/v1/user/password', { token: u.token, body });

async function userWithPassword(name: string): Promise<TestUser> {
  const u = await t.user(name);
  await setPassword(t.db, u.email, PASSWORD, t.deps.config.passwordCost);
  return u;
}

/** Strips what differs between two addresses' pages (the address itself), to compare the rest. */
const page = (body: string, email: string) => body.replaceAll(email, '<email>');

// Each password check is scrypt's work (tenths of a second, seconds on a loaded machine).
describe('PUT /v1/user/password', { timeout: 120_000 }, () => {
  it('changes the password the caller signs in with, after proving the current one', async () => {
    const u = await userWithPassword('grace');
    const res = await change(u, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(204);
    expect((await signIn(u.email, NEW_PASSWORD)).status).toBe(303);
    const old = await signIn(u.email, PASSWORD);
    expect(old.status).toBe(401);
    expect(old.body).toContain('The email and password do not match.');
    // The token it was changed with still works.
    expect((await t.get('/v1/user', u.token)).status).toBe(200);
  });

  it('refuses a wrong current password (403) and a short, easy or unchanged new one (400), naming the field', async () => {
    const u = await userWithPassword('alan');
    expectError(
      await change(u, { currentPassword: 'not the password at all', newPassword: NEW_PASSWORD }),
      403,
      'Invalid body field "currentPassword": it is not the password you sign in with.',
    );
    expectError(
      await change(u, { currentPassword: PASSWORD, newPassword: 'short' }),
      400,
      'Invalid body field "newPassword": must be at least 12 characters.',
    );
    expectError(
      await change(u, { currentPassword: PASSWORD, newPassword: 'aaaaaaaaaaaaaaaa' }),
      400,
      'Invalid body field "newPassword": is too easy to guess: use at least 5 different characters.',
    );
    expectError(
      await change(u, { currentPassword: PASSWORD, newPassword: PASSWORD }),
      400,
      'Invalid body field "newPassword": is your current password; choose a new one.',
    );
    expectError(await change(u, { newPassword: NEW_PASSWORD }), 400, 'Missing body field "currentPassword".');
    expectError(await t.request('PUT', '/v1/user/password', { body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } }), 401);
    // Nothing changed.
    expect((await signIn(u.email, PASSWORD)).status).toBe(303);
  });

  it('is in the OpenAPI document with its body schema', async () => {
    const doc = (await t.get('/v1/openapi.json')).body;
    const op = doc.paths['/v1/user/password'].put;
    expect(op.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/ChangePasswordBody');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['204', '400', '401', '403', '429']));
    expect(doc.components.schemas.ChangePasswordBody.required).toEqual(['currentPassword', 'newPassword']);
  });
});

describe('changing a password on the sign-in page', { timeout: 120_000 }, () => {
  it('the password step offers it; the current password, then the new one twice; then signing in with the new one', async () => {
    const u = await userWithPassword('hedy');
    const step = await postForm({ email: u.email });
    expect(step.body).toContain('name="change" value="1"');
    const form = await postForm({ email: u.email, change: '1' });
    expect(form.status).toBe(200);
    expect(form.body).toContain('Change your password');
    expect(form.body).toContain('name="new_password"');
    const change = (fields: Record<string, string>) => postForm({ email: u.email, change: '1', ...fields });
    const differ = await change({ password: PASSWORD, new_password: NEW_PASSWORD, new_password_again: `${NEW_PASSWORD}!` });
    expect(differ.status).toBe(400);
    expect(differ.body).toContain('The two new passwords differ.');
    const wrong = await change({ password: 'not the password', new_password: NEW_PASSWORD, new_password_again: NEW_PASSWORD });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('The email and current password do not match.');
    const short = await change({ password: PASSWORD, new_password: 'too short', new_password_again: 'too short' });
    expect(short.status).toBe(400);
    expect(short.body).toContain('The new password must be at least 12 characters.');
    const done = await change({ password: PASSWORD, new_password: NEW_PASSWORD, new_password_again: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body).toContain('Your password is changed. Sign in with the new one.');
    expect((await signIn(u.email, NEW_PASSWORD)).status).toBe(303);
    expect((await signIn(u.email, PASSWORD)).status).toBe(401);
  });
});

describe('locking password sign-in after wrong passwords', { timeout: 300_000 }, () => {
  it('ten wrong passwords lock an address for 15 minutes, known or not, alike; a right one is refused meanwhile', async () => {
    const u = await userWithPassword('linus');
    const unknown = 'nobody-here@quire.test';
    for (const email of [u.email, unknown]) {
      for (let i = 1; i <= 9; i++) {
        const wrong = await signIn(email, `wrong password number ${i}`);
        expect(wrong.status, `${email} #${i}`).toBe(401);
      }
    }
    const tenth = await signIn(u.email, 'wrong password number 10');
    const tenthUnknown = await signIn(unknown, 'wrong password number 10');
    expect(tenth.status).toBe(429);
    expect(tenth.body).toContain(LOCKED);
    // The page of an account that exists and of one that does not are the same.
    expect({ status: tenthUnknown.status, body: page(tenthUnknown.body, unknown) }).toEqual({
      status: tenth.status,
      body: page(tenth.body, u.email),
    });
    // Locked: the right password is refused too, and so is a change of password with a token.
    const right = await signIn(u.email, PASSWORD);
    expect(right.status).toBe(429);
    expect(right.body).toContain(LOCKED);
    const changed = await change(u, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expectError(changed, 429, LOCKED);
    expect(Number(changed.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    // The address is locked, not the client: another account signs in from the same place.
    const other = await userWithPassword('margaret');
    expect((await signIn(other.email, PASSWORD)).status).toBe(303);
    // Fifteen minutes later the lock is over.
    await t.db.query(
      `UPDATE password_failures SET locked_until = locked_until - interval '15 minutes', first_failed_at = first_failed_at - interval '15 minutes'`,
    );
    expect((await signIn(u.email, PASSWORD)).status).toBe(303);
  });

  it('wrong current passwords given to the change count too, and an operator setting a password ends a lock', async () => {
    const u = await userWithPassword('barbara');
    for (let i = 1; i <= 9; i++) {
      expect((await change(u, { currentPassword: `wrong password ${i}`, newPassword: NEW_PASSWORD })).status).toBe(403);
    }
    expectError(await change(u, { currentPassword: 'wrong password 10', newPassword: NEW_PASSWORD }), 429, LOCKED);
    expect((await signIn(u.email, PASSWORD)).status).toBe(429);
    await setPassword(t.db, u.email, NEW_PASSWORD, t.deps.config.passwordCost);
    expect((await signIn(u.email, NEW_PASSWORD)).status).toBe(303);
  });

  it('a right password before the tenth wrong one starts the count again', async () => {
    const u = await userWithPassword('edsger');
    for (let i = 1; i <= 9; i++) expect((await signIn(u.email, `wrong password ${i}`)).status).toBe(401);
    expect((await signIn(u.email, PASSWORD)).status).toBe(303);
    for (let i = 1; i <= 9; i++) expect((await signIn(u.email, `wrong password ${i}`)).status).toBe(401);
    expect((await signIn(u.email, PASSWORD)).status).toBe(303);
  });
});

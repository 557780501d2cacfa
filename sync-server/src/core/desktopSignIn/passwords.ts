import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/** One of OWASP's scrypt settings (N=2^15, r=8, p=3): the work of N=2^17 in a quarter of the memory (32 MiB). */
const N = 2 ** 15;
const R = 8;
const P = 3;
const KEY_BYTES = 32;
const MAX_MEMORY = 256 * 1024 * 1024;

export { MIN_PASSWORD_LENGTH } from '@quire/shared/schemas/user';

/** `scrypt$N$r$p$salt$key`, base64url: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize('NFC'), salt, KEY_BYTES, { N, r: R, p: P, maxmem: MAX_MEMORY });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash no password matches: unknown accounts cost the same time as known ones. */
const DECOY = 'scrypt$32768$8$3$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const [kind, n, r, p, salt, key] = (stored ?? DECOY).split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scryptAsync(password.normalize('NFC'), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEMORY,
  });
  return stored !== undefined && actual.length === expected.length && timingSafeEqual(actual, expected);
}

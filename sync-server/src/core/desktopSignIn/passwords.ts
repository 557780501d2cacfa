import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/**
 * scrypt's cost: new hashes use it, and the decoy unknown addresses are checked against.
 * A hash records its own parameters and is checked with them, whatever this is now.
 */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** One of OWASP's scrypt settings (N=2^15, r=8, p=3): the work of N=2^17 in a quarter of the memory (32 MiB). */
export const PRODUCTION_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 3 };
const KEY_BYTES = 32;
const MAX_MEMORY = 256 * 1024 * 1024;

export { MIN_PASSWORD_LENGTH } from '@quire/shared/schemas/user';

/** `scrypt$N$r$p$salt$key`, base64url: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string, cost: ScryptCost): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = cost;
  const key = await scryptAsync(password.normalize('NFC'), salt, KEY_BYTES, { N, r, p, maxmem: MAX_MEMORY });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash no password matches, at the cost new hashes get: unknown accounts cost the same time as known ones. */
function decoy({ N, r, p }: ScryptCost): string {
  return `scrypt$${N}$${r}$${p}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
}

export async function verifyPassword(password: string, stored: string | undefined, cost: ScryptCost): Promise<boolean> {
  const [kind, n, r, p, salt, key] = (stored ?? decoy(cost)).split('$');
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

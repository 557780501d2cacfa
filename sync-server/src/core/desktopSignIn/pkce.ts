import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.2, S256: BASE64URL(SHA-256(ASCII(code_verifier))). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function verifierMatches(verifier: string, challenge: string): boolean {
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A one-time code or sign-in id: 256 random bits. */
export function randomCode(): string {
  return randomBytes(32).toString('base64url');
}

export function codeHash(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** Ids are random, URL-safe and at least 20 characters, so they cannot be guessed or enumerated. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new random id: 22 alphanumeric characters (~131 bits). */
export function newId(): string {
  const bytes = new Uint8Array(22);
  globalThis.crypto.getRandomValues(bytes);
  let out = '';
  // 248 is the largest multiple of 62 below 256: rejecting above it keeps every character equally likely.
  for (let i = 0; out.length < 22; i++) {
    if (i >= bytes.length) {
      globalThis.crypto.getRandomValues(bytes);
      i = 0;
    }
    const b = bytes[i] as number;
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

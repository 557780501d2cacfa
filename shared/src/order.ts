import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';

/**
 * Sibling order as fractional index keys: a move writes one key between its neighbours,
 * so concurrent moves never renumber (or duplicate) anything.
 */
export function keyBetween(before: string | null | undefined, after: string | null | undefined): string {
  return generateKeyBetween(before ?? null, after ?? null);
}

export function keysBetween(before: string | null | undefined, after: string | null | undefined, n: number): string[] {
  return generateNKeysBetween(before ?? null, after ?? null, n);
}

/**
 * Sibling order of rows that carry a key and a sequence number: keys compare as code units
 * (fractional index keys), whatever the database collation; equal keys by sequence.
 */
export function byPosition(a: { position: string; seq: number }, b: { position: string; seq: number }): number {
  return a.position < b.position ? -1 : a.position > b.position ? 1 : Number(a.seq) - Number(b.seq);
}

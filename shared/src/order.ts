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

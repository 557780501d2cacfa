import type { PageRequest } from '../../store/paginate';
import { badRequest } from '@quire/shared/domainErrors';

/**
 * Keyset pagination over a list built in memory (files, links, search hits of a
 * revision): items are sorted by a unique key and a page starts after the key the cursor
 * names, so a list that gained items since the first page neither repeats nor skips one.
 */
export function memoryPage<T>(items: T[], keyOf: (item: T) => string, req: PageRequest) {
  const limit = req.limit ?? 50;
  const sorted = [...items].sort((a, b) => compare(keyOf(a), keyOf(b)));
  let start = 0;
  if (req.page) {
    const after = decode(req.page);
    start = sorted.findIndex((i) => compare(keyOf(i), after) > 0);
    if (start < 0) start = sorted.length;
  }
  const rows = sorted.slice(start, start + limit);
  const last = rows[rows.length - 1];
  const next = start + limit < sorted.length && last !== undefined ? encode(keyOf(last)) : undefined;
  return { rows, count: sorted.length, next };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function encode(key: string): string {
  return Buffer.from(JSON.stringify({ k: key })).toString('base64url');
}

function decode(page: string): string {
  try {
    const c = JSON.parse(Buffer.from(page, 'base64url').toString('utf8')) as { k?: unknown };
    if (typeof c.k !== 'string') throw new Error('bad');
    return c.k;
  } catch {
    throw badRequest('Invalid query parameter field "page": not a cursor from a previous answer.');
  }
}

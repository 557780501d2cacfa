import { badRequest } from '@quire/shared/domainErrors';
import type { Queryable } from './db';

export interface PageRequest {
  limit?: number;
  page?: string;
}

export interface Keyset {
  /** Selected columns, e.g. `s.*`. */
  columns: string;
  /** `FROM ... WHERE ...` (always with a WHERE) selecting every matching row. */
  from: string;
  /** A cheaper `FROM ... WHERE ...` matching the same rows, for `count` (same params). */
  countFrom?: string;
  params: unknown[];
  /** The unique, ever-increasing column that breaks ties, e.g. `s.seq`. */
  seq: string;
  order?: 'asc' | 'desc';
  /**
   * An optional leading sort column and its SQL type for the cursor, e.g. `m.joined_at`,
   * `timestamptz`. It must not be NULL on any matching row (filter those out).
   */
  sort?: { expr: string; type: string };
}

export interface Page<T> {
  rows: T[];
  count: number;
  next?: string;
}

interface Cursor {
  /** `seq` of the last row of the previous page. */
  s: number;
  /** Its sort value, as exact text (see `sortText`). */
  v?: string;
}

const INVALID_CURSOR = 'Invalid query parameter field "page": not a cursor from a previous answer.';

/** Exact text forms per sort type: a cursor's `v` must have this shape before it reaches SQL. */
const SORT_VALUE: Record<string, RegExp> = {
  timestamptz: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/,
  bigint: /^-?\d{1,18}$/,
  int: /^-?\d{1,9}$/,
};

/**
 * The sort value as text that casts back to the very same value. A timestamp goes out with
 * all six fractional digits in UTC: through a JavaScript Date it would lose its
 * microseconds, and rows inserted in one transaction (same timestamp) would then fall
 * between pages or repeat forever.
 */
function sortText(sort: { expr: string; type: string }): string {
  if (sort.type === 'timestamptz') return `to_char((${sort.expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  return `(${sort.expr})::text`;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(page: string, sort: Keyset['sort']): Cursor {
  let c: Cursor;
  try {
    c = JSON.parse(Buffer.from(page, 'base64url').toString('utf8')) as Cursor;
  } catch {
    throw badRequest(INVALID_CURSOR);
  }
  if (!c || typeof c !== 'object' || typeof c.s !== 'number' || !Number.isSafeInteger(c.s)) throw badRequest(INVALID_CURSOR);
  if (sort) {
    const shape = SORT_VALUE[sort.type];
    if (typeof c.v !== 'string' || c.v.length > 256 || (shape && !shape.test(c.v))) throw badRequest(INVALID_CURSOR);
    if (sort.type === 'timestamptz' && Number.isNaN(Date.parse(c.v))) throw badRequest(INVALID_CURSOR);
  }
  return c;
}

/**
 * Keyset pagination: rows after the cursor's (sort, seq), never OFFSET, so a page does
 * not shift when rows are inserted before it. `count` is the total of matching rows.
 */
export async function keysetPage<T>(db: Queryable, q: Keyset, req: PageRequest): Promise<Page<T>> {
  const limit = req.limit ?? 50;
  const dir = q.order === 'desc' ? 'DESC' : 'ASC';
  const cmp = q.order === 'desc' ? '<' : '>';
  const params = [...q.params];
  let cond = '';
  if (req.page) {
    const c = decodeCursor(req.page, q.sort);
    if (q.sort) {
      params.push(c.v, c.s);
      cond = ` AND (${q.sort.expr}, ${q.seq}) ${cmp} ($${params.length - 1}::${q.sort.type}, $${params.length}::bigint)`;
    } else {
      params.push(c.s);
      cond = ` AND ${q.seq} ${cmp} $${params.length}::bigint`;
    }
  }
  const orderBy = q.sort ? `${q.sort.expr} ${dir}, ${q.seq} ${dir}` : `${q.seq} ${dir}`;
  const extra = `${q.seq} AS "_seq"${q.sort ? `, ${sortText(q.sort)} AS "_sort"` : ''}`;
  const [rows, counted] = await Promise.all([
    db.query<T & { _seq: number; _sort?: unknown }>(
      `SELECT ${q.columns}, ${extra} ${q.from}${cond} ORDER BY ${orderBy} LIMIT ${limit + 1}`,
      params,
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n ${q.countFrom ?? q.from}`, q.params),
  ]);
  let next: string | undefined;
  if (rows.length > limit) {
    const last = rows[limit - 1] as { _seq: number; _sort?: string };
    next = encodeCursor({ s: Number(last._seq), ...(q.sort ? { v: last._sort } : {}) });
  }
  // New objects without the cursor columns: deleting properties would turn every row
  // into a slow dictionary-mode object for the presenters that read it next.
  const page: T[] = new Array(Math.min(rows.length, limit));
  for (let i = 0; i < page.length; i++) {
    const { _seq, _sort, ...row } = rows[i] as T & { _seq: number; _sort?: unknown };
    page[i] = row as T;
  }
  return { rows: page, count: counted[0]?.n ?? 0, next };
}

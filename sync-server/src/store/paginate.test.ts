import { DomainError } from '@quire/shared/domainErrors';
import { describe, expect, it } from 'vitest';
import type { Queryable } from './db';
import { type Keyset, keysetPage } from './paginate';

/** A database that records what it is asked and answers rows `seq` 1…n (and their count). */
function fakeDb(total = 3, count: { n: number }[] | null = null) {
  const queries: { sql: string; params: unknown[] }[] = [];
  const db = {
    query: async (sql: string, params: unknown[] = []) => {
      queries.push({ sql, params });
      if (sql.startsWith('SELECT count')) return count ?? [{ n: total }];
      const limit = Number(/LIMIT (\d+)/.exec(sql)?.[1]);
      return Array.from({ length: Math.min(total, limit) }, (_, i) => ({ id: `r${i + 1}`, _seq: i + 1, _sort: `v${i + 1}` }));
    },
  } as unknown as Queryable;
  return { db, queries };
}

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const keyset = (sort?: Keyset['sort'], order?: Keyset['order']): Keyset => ({
  columns: 'm.id',
  from: 'FROM members m WHERE m.org_id = $1',
  params: ['org'],
  seq: 'm.seq',
  ...(sort ? { sort } : {}),
  ...(order ? { order } : {}),
});

async function refusal(page: string, sort?: Keyset['sort']): Promise<unknown> {
  const { db, queries } = fakeDb();
  const error = await keysetPage(db, keyset(sort), { page }).then(
    () => null,
    (e: unknown) => e,
  );
  // refused before anything reaches the database, where a forged value would be a 500
  expect(queries).toEqual([]);
  return error;
}

const INVALID = { kind: 'invalid', message: expect.stringContaining('"page"') };
const TIME = { expr: 'm.joined_at', type: 'timestamptz' };
const BIGINT = { expr: 'm.n', type: 'bigint' };
const INT = { expr: 'm.rank', type: 'int' };

describe('keyset pages', () => {
  it('answers a page with a cursor to the next one, and the total, without the cursor columns in rows', async () => {
    const { db, queries } = fakeDb(3);
    const page = await keysetPage<{ id: string }>(db, keyset(INT), { limit: 2 });
    expect(page.rows).toEqual([{ id: 'r1' }, { id: 'r2' }]);
    expect(page.count).toBe(3);
    expect(JSON.parse(Buffer.from(page.next as string, 'base64url').toString())).toEqual({ s: 2, v: 'v2' });
    expect(queries[0]?.sql).toContain('(m.rank)::text AS "_sort"');
    expect(queries[0]?.sql).toContain('ORDER BY m.rank ASC, m.seq ASC LIMIT 3');
    const last = await keysetPage(fakeDb(2).db, keyset(), { limit: 2 });
    expect(last.next).toBeUndefined();
  });

  it('reads timestamps as exact UTC text, so rows of one transaction never fall between pages', async () => {
    const { db, queries } = fakeDb();
    await keysetPage(db, keyset(TIME), {});
    expect(queries[0]?.sql).toContain(`to_char((m.joined_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "_sort"`);
  });

  it('continues after the cursor in the order asked, by sort value and then seq', async () => {
    const { db, queries } = fakeDb();
    await keysetPage(db, keyset(TIME, 'desc'), { page: cursor({ s: 7, v: '2024-01-01T00:00:00.123456Z' }) });
    expect(queries[0]?.sql).toContain('AND (m.joined_at, m.seq) < ($2::timestamptz, $3::bigint) ORDER BY m.joined_at DESC, m.seq DESC');
    expect(queries[0]?.params).toEqual(['org', '2024-01-01T00:00:00.123456Z', 7]);
    expect(queries[1]?.params).toEqual(['org']);

    const plain = fakeDb();
    await keysetPage(plain.db, keyset(), { page: cursor({ s: 4 }) });
    expect(plain.queries[0]?.sql).toContain('AND m.seq > $2::bigint ORDER BY m.seq ASC');
    expect(plain.queries[0]?.params).toEqual(['org', 4]);
  });

  it('counts 0 when the count answers no row', async () => {
    expect((await keysetPage(fakeDb(0, []).db, keyset(), {})).count).toBe(0);
  });

  it.each([
    ['not base64 JSON', '%%%'],
    ['null', cursor(null)],
    ['a string', cursor('x')],
    ['no seq', cursor({})],
    ['a seq as text', cursor({ s: '1' })],
    ['a fractional seq', cursor({ s: 1.5 })],
    ['an unsafe seq', cursor({ s: 2 ** 60 })],
  ])('refuses a forged cursor (%s) with a 400 naming the parameter', async (_, page) => {
    const error = await refusal(page);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject(INVALID);
  });

  it.each([
    ['no value', TIME, {}],
    ['a number', TIME, { v: 5 }],
    ['a date alone', TIME, { v: '2024-01-01' }],
    ['text before', TIME, { v: 'x2024-01-01T00:00:00.000000Z' }],
    ['text after', TIME, { v: '2024-01-01T00:00:00.000000Z)' }],
    ['no such date', TIME, { v: '2024-13-45T99:99:99.000000Z' }],
    // Date.parse takes both of these, the database neither: the shape alone keeps them out.
    ['a number and a parenthesis before', TIME, { v: '1(2024-01-01T00:00:00.000000Z' }],
    ['a NUL after', TIME, { v: '2024-01-01T00:00:00.000000Z\u0000' }],
    ['SQL', BIGINT, { v: '1); DROP TABLE x; --' }],
    ['a lone minus', BIGINT, { v: '-' }],
    ['19 digits', BIGINT, { v: '1234567890123456789' }],
    ['text after a number', BIGINT, { v: '12a' }],
    ['text before a number', BIGINT, { v: 'a12' }],
    ['10 digits', INT, { v: '1234567890' }],
    ['letters', INT, { v: 'abc' }],
    ['text after a number', INT, { v: '12 ' }],
    ['text before a number', INT, { v: ' 12' }],
    ['too long', { expr: 'm.name', type: 'text' }, { v: 'x'.repeat(257) }],
  ])('refuses a cursor whose sort value has the wrong shape (%s)', async (_, sort, value) => {
    expect(await refusal(cursor({ s: 1, ...value }), sort)).toMatchObject(INVALID);
  });

  it.each([
    [TIME, '2024-02-29T23:59:59.999999Z'],
    [BIGINT, '-123456789012345678'],
    [BIGINT, '7'],
    [INT, '123456789'],
    [INT, '-5'],
    [INT, '12'],
    [{ expr: 'm.name', type: 'text' }, 'x'.repeat(256)],
  ])('accepts a %o cursor value %s as exact text', async (sort, v) => {
    const { db, queries } = fakeDb();
    await keysetPage(db, keyset(sort), { page: cursor({ s: 3, v }) });
    expect(queries[0]?.params).toEqual(['org', v, 3]);
  });
});

import type { Db, Queryable } from './db';

/**
 * On PostgreSQL, insights_events is partitioned by UTC month (`insights_events_y2026m03`),
 * so retention drops a month's events as one file instead of deleting them row by row, and
 * queries over a range read only its months. The embedded database keeps the plain table
 * of migration 051: one process, smaller data, nothing to gain.
 *
 * Partitions are made ahead of time (this month and the next, at start and with each
 * batch) and for any older month an event arrives for, since the events operation accepts
 * any past timestamp.
 */

/** Serializes the making and dropping of partitions between instances. */
const PARTITION_LOCK = 7283402;

const MONTH_MS_MAX = 31 * 24 * 60 * 60 * 1000;

/** The first instant of the UTC month of `at`. */
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

function nextMonth(start: Date): Date {
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/** `insights_events_y2026m03`: the partition holding March 2026. */
export function partitionName(start: Date): string {
  return `insights_events_y${String(start.getUTCFullYear()).padStart(4, '0')}m${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
}

const NAME_PATTERN = /^insights_events_y(\d{4})m(\d{2})$/;

/** The month a partition holds, from its name; undefined for another table. */
function monthOfName(name: string): Date | undefined {
  const m = NAME_PATTERN.exec(name);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)) : undefined;
}

function createPartitionSql(start: Date): string {
  // Only digits and dashes of dates made here reach the statement (DDL takes no parameters).
  return `CREATE TABLE IF NOT EXISTS ${partitionName(start)} PARTITION OF insights_events
    FOR VALUES FROM ('${start.toISOString()}') TO ('${nextMonth(start).toISOString()}')`;
}

/** Months known to have a partition, per database, so a batch costs no catalogue query. */
const known = new WeakMap<Db, Set<number>>();

function knownOf(db: Db): Set<number> {
  let s = known.get(db);
  if (!s) {
    s = new Set();
    known.set(db, s);
  }
  return s;
}

/**
 * Makes sure the months of `instants`, this month and the next have a partition (PostgreSQL
 * only; nothing to do on the embedded database).
 */
export async function ensureMonthPartitions(db: Db, instants: Date[], now = new Date()): Promise<void> {
  if (db.kind !== 'postgres') return;
  const cache = knownOf(db);
  const starts = new Map<number, Date>();
  for (const at of [...instants, now, new Date(now.getTime() + MONTH_MS_MAX)]) {
    const s = monthStart(at);
    if (!cache.has(s.getTime())) starts.set(s.getTime(), s);
  }
  if (!starts.size) return;
  // Usually another instance (or this one's start) made them: a look, no lock, no transaction.
  const missing = await db.query<{ name: string }>('SELECT n AS name FROM unnest($1::text[]) AS n WHERE to_regclass(n) IS NULL', [
    [...starts.values()].map(partitionName),
  ]);
  if (missing.length)
    await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(${PARTITION_LOCK})`);
      for (const s of starts.values()) if (missing.some((m) => m.name === partitionName(s))) await tx.query(createPartitionSql(s));
    });
  for (const k of starts.keys()) cache.add(k);
}

/** Forgets what is known of a database's partitions (another instance may have dropped some). */
export function forgetKnownPartitions(db: Db): void {
  known.delete(db);
}

/** Whether insights_events is partitioned (always false on the embedded database). */
export async function isPartitioned(db: Queryable): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM pg_partitioned_table WHERE partrelid = to_regclass('insights_events')`);
  return rows.length > 0;
}

/**
 * Drops the partitions whose whole month is before `before`, and returns how many events
 * they held. The rest of the retention (the part of a month that expired) is a delete.
 */
export async function dropPartitionsBefore(db: Db, before: Date): Promise<number> {
  if (db.kind !== 'postgres') return 0;
  let dropped = 0;
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${PARTITION_LOCK})`);
    const children = await tx.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = to_regclass('insights_events')`,
    );
    for (const { name } of children) {
      const start = monthOfName(name);
      if (!start || nextMonth(start).getTime() > before.getTime()) continue;
      const [row] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${name}`);
      dropped += row?.n ?? 0;
      await tx.query(`DROP TABLE ${name}`);
    }
  });
  forgetKnownPartitions(db);
  return dropped;
}

/**
 * At start on PostgreSQL, inside the migrations' transaction: converts the table if it is
 * still the plain one, then makes this month's and next month's partitions.
 */
export async function prepareInsightsPartitions(tx: Queryable, now = new Date()): Promise<void> {
  await partitionInsightsEvents(tx, now);
  if (!(await isPartitioned(tx))) return;
  for (const s of [monthStart(now), nextMonth(monthStart(now))]) await tx.query(createPartitionSql(s));
}

/**
 * Turns migration 051's plain insights_events into the partitioned table, keeping its
 * rows, ids, indexes and foreign key. Runs inside the migrations' transaction (and its
 * advisory lock), so instances starting together convert it once; a partitioned table is
 * left as it is.
 */
export async function partitionInsightsEvents(tx: Queryable, now = new Date()): Promise<boolean> {
  const [table] = await tx.query<{ kind: string }>(`SELECT relkind::text AS kind FROM pg_class WHERE oid = to_regclass('insights_events')`);
  if (table?.kind !== 'r') return false;
  await tx.query('LOCK TABLE insights_events IN ACCESS EXCLUSIVE MODE');
  await tx.query(
    `CREATE TABLE insights_events_by_month (LIKE insights_events INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING STORAGE)
       PARTITION BY RANGE (at)`,
  );
  await tx.query('ALTER TABLE insights_events_by_month ADD PRIMARY KEY (id, at)');
  await tx.query('ALTER TABLE insights_events_by_month ADD FOREIGN KEY (site_id) REFERENCES sites(id) ON DELETE CASCADE');
  const months = await tx.query<{ m: Date | string }>(`SELECT DISTINCT date_trunc('month', at, 'UTC') AS m FROM insights_events`);
  const starts = new Map<number, Date>();
  for (const at of [...months.map((r) => new Date(r.m)), now, new Date(now.getTime() + MONTH_MS_MAX)]) {
    const s = monthStart(at);
    starts.set(s.getTime(), s);
  }
  for (const s of starts.values())
    await tx.query(createPartitionSql(s).replace('PARTITION OF insights_events', 'PARTITION OF insights_events_by_month'));
  await tx.query('INSERT INTO insights_events_by_month OVERRIDING SYSTEM VALUE SELECT * FROM insights_events');
  await tx.query('DROP TABLE insights_events');
  await tx.query('ALTER TABLE insights_events_by_month RENAME TO insights_events');
  await tx.query(
    `SELECT setval(pg_get_serial_sequence('insights_events', 'id'), GREATEST((SELECT max(id) FROM insights_events), 0) + 1, false)`,
  );
  await tx.query('CREATE INDEX insights_events_site_at ON insights_events(site_id, at)');
  await tx.query('CREATE INDEX insights_events_visitor ON insights_events(site_id, visitor, at)');
  await tx.query('CREATE INDEX insights_events_at ON insights_events(at)');
  return true;
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Db, DurabilityUnknownError, type ListenerState, type Queryable, mayWrite } from './db';
import { NotificationListener } from './listener';

// Keep int8 (bigint) as strings except where we cast; timestamps stay Date objects.
pg.types.setTypeParser(20, (v) => (Number.isSafeInteger(Number(v)) ? Number(v) : v));

export interface PostgresOptions {
  /** Connections in the pool (`DATABASE_POOL_SIZE`). */
  poolSize?: number;
  /** Statements with parameters are prepared once per connection and then only executed. */
  prepare?: boolean;
}

/** At most this many distinct statements are prepared; the rest run unnamed. */
const MAX_PREPARED = 2000;

function replanned(err: unknown): boolean {
  return (err as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(String((err as Error).message));
}

/** The PostgreSQL server adapter (`DATABASE_URL`). */
export async function openPostgres(url: string, opts: PostgresOptions | number = {}): Promise<Db & ListenerState> {
  const { poolSize = 10, prepare = true } = typeof opts === 'number' ? { poolSize: opts } : opts;
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection the server closes (restart, dropped database) leaves the pool and
  // is replaced on the next query; unheard, its error would end the process.
  pool.on('error', () => {});
  // Fail fast on a wrong URL instead of at the first request.
  const client = await pool.connect();
  client.release();
  const listener = new NotificationListener(url, `quire_fence_${randomBytes(6).toString('hex')}`);

  const names = new Map<string, string>();
  /** A name per statement text: the server parses and plans it once per connection. */
  const named = (sql: string, params: unknown[] | undefined): pg.QueryConfig | string => {
    if (!prepare || !params?.length) return sql;
    let name = names.get(sql);
    if (!name) {
      if (names.size >= MAX_PREPARED) return sql;
      name = `q${names.size}`;
      names.set(sql, name);
    }
    return { name, text: sql };
  };

  let writes = 0;
  const wrap = (q: pg.Pool | pg.PoolClient, inTransaction: boolean): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      // Only statements outside transactions are prepared (the hot reads): one that meets a
      // changed table is run again unprepared, which a transaction could not do.
      const config = inTransaction ? sql : named(sql, params);
      try {
        if (typeof config === 'string') return (await q.query(sql, params as unknown[])).rows as T[];
        try {
          return (await q.query({ ...config, values: params })).rows as T[];
        } catch (err) {
          // A table changed shape since this connection prepared the statement (a migration
          // of another instance, say): run it unprepared; PostgreSQL refuses the old plan.
          if (!replanned(err)) throw err;
          return (await q.query(sql, params as unknown[])).rows as T[];
        }
      } finally {
        if (!inTransaction && mayWrite(sql)) writes++;
      }
    },
  });

  return {
    kind: 'postgres',
    ...wrap(pool, false),
    async transaction(fn) {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const out = await fn(wrap(c, true));
        try {
          await c.query('COMMIT');
        } catch (err) {
          // An error the server answered means it did not commit; a dropped connection leaves it unknown.
          if ((err as { severity?: string }).severity) throw err;
          throw new DurabilityUnknownError(err);
        }
        writes++;
        return out;
      } catch (err) {
        await c.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        c.release();
      }
    },
    async exec(sql) {
      await pool.query(sql);
      writes++;
    },
    listen: (channel, onPayload) => listener.listen(channel, onPayload),
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    fence: () => listener.fence(),
    get writes() {
      return writes;
    },
    get listening() {
      return listener.up;
    },
    onListening: (cb) => listener.onState(cb),
    backendOfListener: () => listener.backendPid(),
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}

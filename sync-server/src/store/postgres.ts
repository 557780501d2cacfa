import pg from 'pg';
import { type Db, DurabilityUnknownError, type Queryable } from './db';

// Keep int8 (bigint) as strings except where we cast; timestamps stay Date objects.
pg.types.setTypeParser(20, (v) => (Number.isSafeInteger(Number(v)) ? Number(v) : v));

/** The PostgreSQL server adapter (`DATABASE_URL`). */
export async function openPostgres(url: string, poolSize = 10): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection the server closes (restart, dropped database) leaves the pool and
  // is replaced on the next query; unheard, its error would end the process.
  pool.on('error', () => {});
  // Fail fast on a wrong URL instead of at the first request.
  const client = await pool.connect();
  client.release();
  let listener: pg.Client | undefined;
  const handlers = new Map<string, Set<(payload: string) => void>>();

  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const res = await q.query(sql, params as unknown[]);
      return res.rows as T[];
    },
  });

  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const out = await fn(wrap(c));
        try {
          await c.query('COMMIT');
        } catch (err) {
          // An error the server answered means it did not commit; a dropped connection leaves it unknown.
          if ((err as { severity?: string }).severity) throw err;
          throw new DurabilityUnknownError(err);
        }
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
    },
    async listen(channel, onPayload) {
      if (!listener) {
        listener = new pg.Client({ connectionString: url });
        await listener.connect();
        listener.on('notification', (msg) => {
          for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
        });
      }
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await listener.query(`LISTEN "${channel.replaceAll('"', '')}"`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
      };
    },
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}

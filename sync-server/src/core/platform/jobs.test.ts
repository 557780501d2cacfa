import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAdapter } from '../../testing/databases';
import { TestServer } from '../../testing/harness';
import { runBackgroundJobs } from './jobs';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

describe('background jobs', () => {
  it.skipIf(testAdapter() === 'postgres')('refresh the planner statistics of the embedded database, which has no autovacuum', async () => {
    const { orgId } = await t.org();
    await t.db.query(
      `INSERT INTO users (id, email, display_name) SELECT 'stats_user_' || i, 'stats' || i || '@jobs.test', 'S' FROM generate_series(1, 500) i`,
    );
    await t.db.query(`INSERT INTO org_members (org_id, user_id, role) SELECT $1, id, 'read' FROM users WHERE id LIKE 'stats\\_user\\_%'`, [
      orgId,
    ]);
    const estimate = async () =>
      (await t.db.query<{ n: number }>("SELECT reltuples::int AS n FROM pg_class WHERE relname = 'org_members'"))[0]?.n ?? 0;
    expect(await estimate()).toBeLessThan(500);
    await runBackgroundJobs(t.db, t.deps.log);
    expect(await estimate()).toBeGreaterThanOrEqual(500);
  });

  it.skipIf(testAdapter() === 'postgres')('let sockets and timers in between the tables they maintain', async () => {
    const tables = (
      await t.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE c.relkind = 'r' AND s.nspname = 'public'",
      )
    )[0]!.n;
    let turns = 0;
    let stop = false;
    const spin = () => {
      if (stop) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    await runBackgroundJobs(t.db, t.deps.log);
    stop = true;
    // One turn of the loop per table at least: no single pause holds the whole database's upkeep.
    expect(tables).toBeGreaterThan(20);
    expect(turns).toBeGreaterThanOrEqual(tables);
  });
});

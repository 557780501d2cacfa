import pg from 'pg';

/** A fresh database on the PostgreSQL server of `url`, named after `prefix`, and how to drop it. */
export async function scratchDatabase(url: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

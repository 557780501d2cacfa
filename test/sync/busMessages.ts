import { Redis } from 'ioredis';
import pg from 'pg';
import { streamKey } from '../../sync-server/src/sync/RedisBus';
import { type LogRows } from '../../sync-server/src/sync/SyncBus';
import { YDOC_CHANNEL, parseLogNotice } from '../../sync-server/src/store/ydocs';
import { type Bus, REDIS_URL } from './serverProcess';

/** Each document's `last_seq`: the rows its log holds so far. */
export async function storedSeqs(databaseUrl: string, docIds: string[]): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; last_seq: string }>('SELECT id, last_seq FROM ydocs WHERE id = ANY($1)', [docIds]);
    return new Map(docIds.map((id) => [id, Number(rows.find((r) => r.id === id)?.last_seq ?? 0)]));
  } finally {
    await client.end();
  }
}

/**
 * The announcements of stored rows that mention `docIds`, as they travel between
 * instances: the NOTIFYs on PostgreSQL (heard by a LISTEN of the test's own), the stream
 * entries on Redis (read back from every shard's stream). `stop` answers them.
 */
export async function busMessages(bus: Bus, databaseUrl: string, docIds: string[], shards = 1): Promise<{ stop(): Promise<LogRows[]> }> {
  const ours = (m: LogRows) => m.rows.some((r) => docIds.includes(r.docId));
  if (bus === 'postgres') {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const heard: LogRows[] = [];
    client.on('notification', (n) => {
      if (n.channel === YDOC_CHANNEL) heard.push(parseLogNotice(n.payload ?? ''));
    });
    await client.query(`LISTEN ${YDOC_CHANNEL}`);
    return {
      async stop() {
        // Notifications are delivered in commit order: once this one is back, every earlier one is.
        const fence = new Promise<void>((r) => client.on('notification', (n) => n.payload === 'fence' && r()));
        await client.query('SELECT pg_notify($1, $2)', [YDOC_CHANNEL, 'fence']);
        await fence;
        await client.end();
        return heard.filter(ours);
      },
    };
  }
  const redis = new Redis(REDIS_URL);
  const keys = Array.from({ length: shards }, (_, i) => streamKey(i));
  const from = await Promise.all(
    keys.map(async (k) => ((await redis.xrevrange(k, '+', '-', 'COUNT', 1)) as [string, string[]][])[0]?.[0] ?? '0-0'),
  );
  return {
    async stop() {
      const out: LogRows[] = [];
      for (const [i, key] of keys.entries()) {
        const entries = (await redis.xrange(key, `(${from[i]}`, '+')) as [string, string[]][];
        for (const [, fields] of entries) if (fields[0] === 'n') out.push(parseLogNotice(fields[1] ?? ''));
      }
      redis.disconnect();
      return out.filter(ours);
    },
  };
}

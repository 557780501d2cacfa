import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Db } from '../store/db';
import { YDOC_CHANNEL, parseLogNotice } from '../store/ydocs';
import { AWARENESS_CHANNEL } from './AwarenessRelay';
import type { BusHandlers, SyncBus } from './SyncBus';

/**
 * LISTEN/NOTIFY: one NOTIFY per stored group, sent by the statement that stores it, so it
 * goes out on commit; every listening instance hears every notice.
 */
export class PostgresBus implements SyncBus {
  readonly kind = 'postgres';
  readonly announcedInStatement = true;
  readonly sent = { groups: 0, awareness: 0 };
  private unlisten: (() => Promise<void>)[] = [];

  constructor(
    private db: Db,
    private log: Logger,
  ) {}

  async start(h: BusHandlers) {
    this.unlisten.push(await this.db.listen(YDOC_CHANNEL, (payload) => h.rows(parseLogNotice(payload))));
    this.unlisten.push(await this.db.listen(AWARENESS_CHANNEL, (payload) => h.awareness(payload)));
    // Notices sent while the LISTEN connection was down are lost for good: every room catches up.
    const off = this.db.onListening((up) => up && h.missed());
    this.unlisten.push(async () => void off());
  }

  announce() {
    // Sent by the statement (`appendGrouped`); counted here for the metrics.
    this.sent.groups++;
  }

  relayAwareness(_docId: string, payload: string) {
    this.sent.awareness++;
    this.db.notify(AWARENESS_CHANNEL, payload).catch((err) => this.log.warn({ err }, 'relaying awareness failed'));
  }

  hold() {}
  release() {}

  async stop() {
    for (const un of this.unlisten) await un().catch(() => {});
  }
}

/** The bus the settings ask for; none on the embedded database (one process, nothing to fan out to). */
export async function busFor(db: Db, config: Config, log: Logger): Promise<SyncBus | undefined> {
  if (db.kind !== 'postgres') return undefined;
  if (config.syncBus === 'postgres') return new PostgresBus(db, log);
  // Loaded only when asked for: the default setup never needs the Redis client.
  const { RedisBus } = await import('./RedisBus');
  return new RedisBus(db, config.redisUrl, config.syncBusShards, log);
}

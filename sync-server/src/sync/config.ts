/** Settings of the `/v1/sync` endpoint; read from the environment by `loadConfig`. */
export interface SyncConfig {
  /** Largest WebSocket message accepted; a larger one closes the connection with 1009. */
  maxMessageBytes: number;
  /** Sustained messages a second one connection may send; beyond it the server reads it more slowly. */
  messagesPerSecond: number;
  /** Messages one connection may send at once before the rate applies. */
  messageBurst: number;
  /** Bytes queued for a client that does not read before the server drops it (it then reconnects and resyncs). */
  slowClientBytes: number;
  /** Quiet period after the last live edit of a branch before a revision is cut. */
  quietMs: number;
  /** How long a room without connections stays in memory. */
  idleMs: number;
  /** Log rows past the snapshot that trigger a background compaction of a loaded document. */
  compactEvery: number;
  /** How often each connection's token and role are checked again (revocations, role changes). */
  recheckMs: number;
  /** Lifetime of a sync ticket. */
  ticketTtlSeconds: number;
  /** WebSocket upgrades one client address may start per minute; more are answered 429. */
  upgradesPerMinute: number;
  /** Server processes to run (several only with DATABASE_URL: the embedded database serves one process). */
  workers: number;
}

export const SYNC_DEFAULTS: SyncConfig = {
  maxMessageBytes: 10 * 1024 * 1024,
  messagesPerSecond: 200,
  messageBurst: 400,
  slowClientBytes: 16 * 1024 * 1024,
  quietMs: 2000,
  idleMs: 30_000,
  compactEvery: 500,
  recheckMs: 30_000,
  ticketTtlSeconds: 60,
  upgradesPerMinute: 600,
  workers: 1,
};

/** Reads the sync settings; `int` is the config loader's whole-number reader. */
export function loadSyncConfig(int: (name: string, dflt: number) => number): SyncConfig {
  const d = SYNC_DEFAULTS;
  const positive = (name: string, dflt: number) => {
    const n = int(name, dflt);
    if (n < 1) throw new Error(`${name} must be at least 1, got ${n}`);
    return n;
  };
  return {
    maxMessageBytes: positive('SYNC_MAX_MESSAGE_BYTES', d.maxMessageBytes),
    messagesPerSecond: positive('SYNC_MESSAGES_PER_SECOND', d.messagesPerSecond),
    messageBurst: positive('SYNC_MESSAGE_BURST', d.messageBurst),
    slowClientBytes: positive('SYNC_SLOW_CLIENT_BYTES', d.slowClientBytes),
    quietMs: positive('QUIET_MS', d.quietMs),
    idleMs: positive('SYNC_IDLE_MS', d.idleMs),
    compactEvery: positive('SYNC_COMPACT_EVERY', d.compactEvery),
    recheckMs: positive('SYNC_RECHECK_MS', d.recheckMs),
    ticketTtlSeconds: d.ticketTtlSeconds,
    upgradesPerMinute: positive('SYNC_UPGRADES_PER_MINUTE', d.upgradesPerMinute),
    workers: positive('WORKERS', d.workers),
  };
}

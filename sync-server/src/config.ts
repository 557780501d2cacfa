import { resolve } from 'node:path';
import { type ContentConfig, loadContentConfig } from './core/content/config';
import { PRODUCTION_COST, type ScryptCost } from './core/desktopSignIn/passwords';
import { type SyncConfig, loadSyncConfig } from './sync/config';

/** Every setting comes from the environment; this is the one place that reads it. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Connections to PostgreSQL per process (`DATABASE_POOL_SIZE`). */
  databasePoolSize: number;
  /**
   * Sync updates on the embedded database go through an append-only journal in
   * `DATA_DIR/journal` (`SYNC_JOURNAL`, on unless `off`); ignored with `DATABASE_URL`.
   */
  syncJournal: boolean;
  /**
   * What carries sync updates between instances sharing PostgreSQL (`SYNC_BUS`): `postgres`
   * (LISTEN/NOTIFY, the default) or `redis` (Redis Streams at `REDIS_URL`); ignored on the
   * embedded database, which serves one process.
   */
  syncBus: 'postgres' | 'redis';
  redisUrl: string;
  /** Streams the Redis bus spreads rooms over (`SYNC_BUS_SHARDS`): an instance reads only the shards of the rooms it holds. */
  syncBusShards: number;
  /** The embedded database's buffer pool in megabytes (`PGLITE_SHARED_BUFFERS_MB`, Postgres's 128). */
  pgliteSharedBuffersMb: number;
  /** The embedded database runs in a thread of its own (`PGLITE_THREAD`, on unless `off`). */
  pgliteThread: boolean;
  /** Entries the read model keeps (`READ_MODEL_ENTRIES`; 0 reads everything from the database). */
  readModelEntries: number;
  publicUrl?: string;
  bootstrapAdminToken?: string;
  /** Requests a minute per API token. */
  rateLimitPerToken: number;
  /** Requests a minute per client address (unauthenticated traffic included). */
  rateLimitPerAddress: number;
  maxBodyBytes: number;
  /** Largest file one upload may carry (`MAX_FILE_BYTES`); JSON bodies keep `maxBodyBytes`. */
  maxFileBytes: number;
  allowPrivateFetch: boolean;
  logLevel: string;
  /** `GET /metrics` in Prometheus's format (`METRICS=on`; off by default). */
  metrics: boolean;
  /** The `/v1/sync` WebSocket endpoint: limits, quiet period, workers. */
  sync: SyncConfig;
  /** Content imports: size, time and page limits. */
  content: ContentConfig;
  /**
   * Hosts of this server itself (PUBLIC_URL's host, loopback names and `RESERVED_HOSTNAMES`):
   * never a site's custom hostname.
   */
  reservedHostnames: string[];
  /** DNS servers asked for custom hostname verification records (`host:port`); the system's when empty. */
  hostnameDnsServers: string[];
  /** Requests a minute per client address to published sites (`/s/…` and custom hostnames). */
  rateLimitSitesPerAddress: number;
  /** Requests a minute per client address to the browser-facing SSO endpoints (`/sso/…`). */
  rateLimitSsoPerAddress: number;
  /** Webhook deliveries: one attempt's time limit and the first retry's wait (doubled after each failure). */
  webhooks: { timeoutMs: number; retryBaseMs: number };
  /**
   * Git imports and exports: most bytes one operation may fetch from a repository
   * (`GIT_MAX_BYTES`), and how long one may run before it is stopped (`GIT_TIMEOUT_MS`);
   * the first wait before a failed sync of a connected space is tried again
   * (`GIT_RETRY_BASE_MS`, doubled each time), and how often connected branches are polled
   * (`GIT_POLL_SECONDS`, 0: never, pushes then arrive by webhook only).
   */
  git: { maxBytes: number; timeoutMs: number; retryBaseMs: number; pollSeconds: number };
  /** Days site insights keep an event (`INSIGHTS_RETENTION_DAYS`); older ones are deleted by the background jobs. */
  insightsRetentionDays: number;
  /**
   * scrypt's cost for new desktop sign-in passwords (`PASSWORD_SCRYPT_N`, 2^15). Never lower than
   * that but under `NODE_ENV=test`, where tests set many passwords; a hash keeps its parameters,
   * so passwords set at another cost still verify.
   */
  passwordCost: ScryptCost;
  /** The machine translation service translation runs use (LibreTranslate API); none: runs fail and say so. */
  translation: { providerUrl?: string; providerKey?: string };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const int = (name: string, dflt: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return dflt;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
    return n;
  };
  return {
    port: int('PORT', 8080),
    host: env.HOST ?? '0.0.0.0',
    // `npm start` at the top level runs the script inside sync-server/; npm keeps the
    // directory it was started from in INIT_CWD, and that is where ./data is meant to be.
    dataDir: resolve(env.INIT_CWD ?? process.cwd(), env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: Math.max(1, int('DATABASE_POOL_SIZE', 20)),
    syncJournal: env.SYNC_JOURNAL !== 'off',
    syncBus: syncBus(env.SYNC_BUS),
    redisUrl: env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379',
    syncBusShards: Math.min(1024, Math.max(1, int('SYNC_BUS_SHARDS', 1))),
    pgliteSharedBuffersMb: Math.max(1, int('PGLITE_SHARED_BUFFERS_MB', 128)),
    pgliteThread: env.PGLITE_THREAD !== 'off',
    readModelEntries: int('READ_MODEL_ENTRIES', 50_000),
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, '') || undefined,
    bootstrapAdminToken: env.BOOTSTRAP_ADMIN_TOKEN || undefined,
    rateLimitPerToken: int('RATE_LIMIT_PER_TOKEN', 6000),
    rateLimitPerAddress: int('RATE_LIMIT_PER_ADDRESS', 12000),
    maxBodyBytes: int('MAX_BODY_BYTES', 1024 * 1024),
    maxFileBytes: int('MAX_FILE_BYTES', 25 * 1024 * 1024),
    reservedHostnames: reservedHostnames(env),
    hostnameDnsServers: list(env.HOSTNAME_DNS_SERVERS),
    rateLimitSitesPerAddress: int('RATE_LIMIT_SITES_PER_ADDRESS', 3000),
    rateLimitSsoPerAddress: int('RATE_LIMIT_SSO_PER_ADDRESS', 300),
    allowPrivateFetch: env.ALLOW_PRIVATE_FETCH === 'true',
    logLevel: env.LOG_LEVEL ?? 'info',
    metrics: env.METRICS === 'on',
    sync: loadSyncConfig(int),
    content: loadContentConfig(int),
    webhooks: {
      timeoutMs: Math.max(1, int('WEBHOOK_TIMEOUT_MS', 10_000)),
      retryBaseMs: Math.max(1, int('WEBHOOK_RETRY_BASE_MS', 10_000)),
    },
    git: {
      maxBytes: Math.max(1, int('GIT_MAX_BYTES', 256 * 1024 * 1024)),
      timeoutMs: Math.max(1, int('GIT_TIMEOUT_MS', 10 * 60 * 1000)),
      retryBaseMs: Math.max(1, int('GIT_RETRY_BASE_MS', 30_000)),
      pollSeconds: Math.max(0, int('GIT_POLL_SECONDS', 0)),
    },
    insightsRetentionDays: Math.max(1, int('INSIGHTS_RETENTION_DAYS', 400)),
    passwordCost: passwordCost(env, int('PASSWORD_SCRYPT_N', PRODUCTION_COST.N)),
    translation: {
      providerUrl: env.TRANSLATION_PROVIDER_URL?.trim() || undefined,
      providerKey: env.TRANSLATION_PROVIDER_KEY?.trim() || undefined,
    },
  };
}

function passwordCost(env: NodeJS.ProcessEnv, N: number): ScryptCost {
  const least = env.NODE_ENV === 'test' ? 2 : PRODUCTION_COST.N;
  if (N < least || (N & (N - 1)) !== 0) {
    throw new Error(`PASSWORD_SCRYPT_N must be a power of two of at least ${least}, got ${N}`);
  }
  return { ...PRODUCTION_COST, N };
}

function syncBus(raw: string | undefined): 'postgres' | 'redis' {
  const v = raw?.trim().toLowerCase() || 'postgres';
  if (v !== 'postgres' && v !== 'redis') throw new Error(`SYNC_BUS must be postgres or redis, got "${raw}"`);
  return v;
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

/** The names this server answers to itself; a site may never take one of them as its hostname. */
function reservedHostnames(env: NodeJS.ProcessEnv): string[] {
  const own = ['localhost', '127.0.0.1', '::1', '[::1]'];
  const publicUrl = env.PUBLIC_URL?.trim();
  if (publicUrl) {
    try {
      own.push(new URL(publicUrl).hostname.toLowerCase());
    } catch {
      throw new Error(`PUBLIC_URL must be a URL, got "${publicUrl}"`);
    }
  }
  return [...new Set([...own, ...list(env.RESERVED_HOSTNAMES)])];
}

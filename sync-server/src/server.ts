import { type Server, createServer } from 'node:http';
import { type ServerType, serve } from '@hono/node-server';
import type { Config } from './config';
import { bootstrapAdmin } from './core/platform/bootstrap';
import { startGitPolling } from './core/git/poller';
import { GitRunner } from './core/git/runner';
import { stopInsightsRecorder } from './core/insights/recorder';
import { startJobs } from './core/platform/jobs';
import { resumeUnfinishedSpecs } from './core/openapi/process';
import { readModelOf } from './core/readModel/readModel';
import { startTranslationSchedule } from './core/translations/schedule';
import { WebhookDispatcher } from './core/webhooks/dispatcher';
import { type App, createApp } from './http/app';
import { type RateLimiters, rateLimiters } from './http/middleware/rateLimit';
import { cachedResponses } from './http/responseCache';
import type { Deps } from './http/env';
import { type Logger, createLogger } from './logger';
import { createMetrics } from './metrics/metrics';
import { type OpenedStore, openStore } from './store/open';
import { SyncService } from './sync/SyncService';

export interface RunningServer {
  deps: Deps;
  server: ServerType;
  port: number;
  /** The `/v1/sync` WebSocket endpoint. */
  sync: SyncService;
  /** Stops taking connections, lets requests in flight finish, then closes the database. */
  stop(): Promise<void>;
}

export async function startServer(
  config: Config,
  log: Logger = createLogger(config.logLevel),
  /** An already opened database (tests pass a fresh one); by default the configured one is opened. */
  opts: { store?: OpenedStore } = {},
): Promise<RunningServer> {
  const { db, unlock } = opts.store ?? (await openStore(config, { log }));
  if (config.bootstrapAdminToken && (await bootstrapAdmin(db, config.bootstrapAdminToken))) {
    log.info('created the first organization, its admin user and the bootstrap token');
  }
  const deps: Deps = { db, config, log };
  // Serve only once invalidations are heard: until then every read goes to the database.
  await readModelOf(db, { maxEntries: config.readModelEntries }).ready;
  const limiters = rateLimiters(config);
  const metrics = config.metrics ? createMetrics(db) : undefined;
  const app = createApp(deps, limiters, metrics);
  const stopJobs = startJobs(db, log, undefined, { insightsRetentionDays: config.insightsRetentionDays });
  const stopTranslationSchedule = startTranslationSchedule(deps);
  // Deliveries left pending by a stopped process go out from here too.
  const webhooks = await new WebhookDispatcher({ db, log, ...config.webhooks, allowPrivate: config.allowPrivateFetch }).start();
  // Git operations a stopped process left queued or running are resumed from here too.
  const git = await new GitRunner(deps).start();
  // Connected branches no webhook reaches are polled (GIT_POLL_SECONDS; off by default).
  const stopGitPolling = startGitPolling(deps);
  // Spec processing a stopped process left pending or in progress starts again.
  void resumeUnfinishedSpecs(deps).catch((err) => log.error({ err }, 'resuming OpenAPI processing failed'));
  const sync = await SyncService.start({ db, config, log });
  const server = await listenHttp(deps, config.port, config.host, limiters, app);
  sync.attach(server as Server);
  metrics?.watchSync(sync);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info({ port, database: db.kind }, 'serving');
  let stopping: Promise<void> | undefined;
  return {
    deps,
    server,
    port,
    sync,
    stop() {
      stopping ??= (async () => {
        stopTranslationSchedule();
        await webhooks.stop();
        await stopGitPolling();
        await git.stop();
        await stopJobs();
        await sync.stop();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        // What sites recorded in the last seconds is written before the database closes.
        await stopInsightsRecorder(db);
        await db.close();
        unlock();
      })();
      return stopping;
    },
  };
}

/**
 * The HTTP server of an app: hot GETs answered from cached bytes never reach Hono (see
 * http/responseCache); everything else goes to the app.
 */
export function listenHttp(
  deps: Deps,
  port: number,
  host: string,
  limiters: RateLimiters = rateLimiters(deps.config),
  app: App = createApp(deps, limiters),
): Promise<ServerType> {
  const fromCache = cachedResponses(deps, limiters);
  return new Promise<ServerType>((resolve) => {
    const s = serve(
      {
        fetch: app.fetch,
        port,
        hostname: host,
        createServer: (options: object, toApp: (req: never, res: never) => void) =>
          createServer(options, (req, res) => {
            const served = fromCache(req, res);
            if (served === false) toApp(req as never, res as never);
            else if (served !== true) {
              void served.then(
                (ok) => ok || toApp(req as never, res as never),
                () => toApp(req as never, res as never),
              );
            }
          }),
      } as Parameters<typeof serve>[0],
      () => resolve(s),
    );
  });
}

import type { Server } from 'node:http';
import { type ServerType, serve } from '@hono/node-server';
import type { Config } from './config';
import { bootstrapAdmin } from './core/bootstrap';
import { startJobs } from './core/jobs';
import { resumeUnfinishedSpecs } from './core/openapi/process';
import { startTranslationSchedule } from './core/translations/schedule';
import { createApp } from './http/app';
import type { Deps } from './http/env';
import { type Logger, createLogger } from './logger';
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
  const { db, unlock } = opts.store ?? (await openStore(config));
  if (config.bootstrapAdminToken && (await bootstrapAdmin(db, config.bootstrapAdminToken))) {
    log.info('created the first organization, its admin user and the bootstrap token');
  }
  const deps: Deps = { db, config, log };
  const app = createApp(deps);
  const stopJobs = startJobs(db, log);
  const stopTranslationSchedule = startTranslationSchedule(deps);
  // Spec processing a stopped process left pending or in progress starts again.
  void resumeUnfinishedSpecs(deps).catch((err) => log.error({ err }, 'resuming OpenAPI processing failed'));
  const sync = await SyncService.start({ db, config, log });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
  });
  sync.attach(server as Server);
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
        await stopJobs();
        await sync.stop();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await db.close();
        unlock();
      })();
      return stopping;
    },
  };
}

import cluster from 'node:cluster';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { startServer } from './server';
import { DataDirInUseError } from './store/lock';

const config = loadConfig();
const log = createLogger(config.logLevel);
const workers = config.sync.workers;

if (workers > 1 && !config.databaseUrl) {
  const message =
    `WORKERS=${workers} cannot be honoured: the embedded database (PGlite in ${config.dataDir}) serves one process only. ` +
    'Start without WORKERS to run one process, or set DATABASE_URL to a PostgreSQL server to run several.';
  log.error(message);
  console.error(message);
  process.exit(1);
}

if (workers > 1 && cluster.isPrimary) {
  await superviseWorkers(workers);
} else {
  await serveInThisProcess();
}

/**
 * Several processes on one port and one PostgreSQL: each is a full instance with its own
 * rooms; edits cross between them through the update log and LISTEN/NOTIFY.
 */
async function superviseWorkers(count: number) {
  let stopping = false;
  log.info({ workers: count }, 'starting worker processes sharing the port and the database');
  for (let i = 0; i < count; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    log.error({ pid: worker.process.pid, code, signal }, 'a worker exited; starting another');
    cluster.fork();
  });
  const shutdown = (signal: string) => {
    log.info({ signal }, 'shutting down the workers');
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    setTimeout(() => process.exit(1), 15_000).unref();
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

async function serveInThisProcess() {
  try {
    const running = await startServer(config, log);
    const shutdown = async (signal: string) => {
      log.info({ signal }, 'shutting down');
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      await running.stop();
      process.exit(0);
    };
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    process.once('SIGINT', () => void shutdown('SIGINT'));
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      log.error(err.message);
      console.error(err.message);
    } else {
      log.error({ err }, 'could not start');
    }
    process.exit(1);
  }
}

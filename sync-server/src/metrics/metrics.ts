import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { readModelOf } from '../core/readModel/readModel';
import type { Db } from '../store/db';
import { jobQueueDepths } from '../store/jobQueues';
import { journalOf } from '../store/journal/journaledDb';
import type { SyncService } from '../sync/SyncService';

/** The server's metrics in Prometheus's text format (`GET /metrics` when `METRICS=on`). */
export interface Metrics {
  readonly contentType: string;
  render(): Promise<string>;
  /** Connections, rooms and updates from the sync endpoint, once it runs. */
  watchSync(sync: SyncService): void;
}

/**
 * A Prometheus counter fed from a running total kept elsewhere (the sync endpoint's and the
 * read model's own counters): read at each scrape, so nothing on a hot path touches prom-client.
 */
function totalsCounter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: L[],
  read: () => [Record<L, string>, number][],
) {
  const last = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      for (const [labels, total] of read()) {
        const key = JSON.stringify(labels);
        const delta = total - (last.get(key) ?? 0);
        if (delta > 0) this.inc(labels as never, delta);
        last.set(key, total);
      }
    },
  });
}

export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  // Process CPU and memory, garbage collection, and the event loop's delay (`nodejs_eventloop_lag_*`).
  collectDefaultMetrics({ register: registry });
  let sync: SyncService | undefined;

  new Gauge({
    name: 'quire_sync_connections',
    help: 'Open sync WebSocket connections.',
    registers: [registry],
    collect() {
      this.set(sync?.stats().connections ?? 0);
    },
  });
  new Gauge({
    name: 'quire_sync_rooms_loaded',
    help: 'Documents loaded into sync rooms.',
    registers: [registry],
    collect() {
      this.set(sync?.stats().rooms ?? 0);
    },
  });
  totalsCounter(registry, 'quire_sync_updates_stored_total', 'Updates from clients stored (on disk) by this instance.', [], () => [
    [{}, sync?.traffic.updatesStored ?? 0],
  ]);
  totalsCounter(registry, 'quire_sync_updates_relayed_total', 'Update messages sent to sync clients.', [], () => [
    [{}, sync?.traffic.updatesRelayed ?? 0],
  ]);
  totalsCounter(
    registry,
    'quire_sync_bus_messages_total',
    'Messages this instance sent on the bus between instances (NOTIFYs or XADDs): stored groups announced, awareness relayed.',
    ['bus', 'kind'],
    () => {
      const bus = sync?.bus;
      if (!bus) return [];
      return [
        [{ bus: bus.kind, kind: 'group' }, bus.sent.groups],
        [{ bus: bus.kind, kind: 'awareness' }, bus.sent.awareness],
      ];
    },
  );

  const journalSyncs = new Histogram({
    name: 'quire_journal_sync_seconds',
    help: 'Time of each fdatasync of the sync journal (embedded database): what a relay waits for.',
    buckets: [0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  journalOf(db)?.observeSyncs((ms) => journalSyncs.observe(ms / 1000));

  totalsCounter(
    registry,
    'quire_read_model_lookups_total',
    'Lookups in the read model: entries (tokens, access, rows) and response bytes, found or not.',
    ['kind', 'result'],
    () => {
      const s = readModelOf(db).stats;
      return [
        [{ kind: 'entry', result: 'hit' }, s.hits],
        [{ kind: 'entry', result: 'miss' }, s.misses],
        [{ kind: 'response', result: 'hit' }, s.responseHits],
        [{ kind: 'response', result: 'miss' }, s.responseMisses],
      ];
    },
  );

  new Gauge({
    name: 'quire_job_queue_depth',
    help: 'Background work waiting or under way, by queue.',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      const d = await jobQueueDepths(db);
      this.set({ queue: 'webhook_deliveries' }, d.webhookDeliveries);
      this.set({ queue: 'openapi_specs' }, d.openapiSpecs);
      this.set({ queue: 'translations' }, d.translations);
    },
  });

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    watchSync(s) {
      sync = s;
    },
  };
}

import { request } from 'node:http';
import { spaceRoom } from '@quire/shared/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAdapter } from '../testing/databases';
import { LiveServer, acknowledged, synced, waitFor } from '../testing/syncClients';

const SITE_HOST = 'docs.metrics.test';

let live: LiveServer;
let plain: LiveServer;
let base: string;

/** One sample's value from Prometheus's text format, by its name and labels as written. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A GET with its own Host header (fetch sends the URL's host whatever it is given). */
function getAtHost(port: number, host: string, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path, headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    })
      .on('error', reject)
      .end();
  });
}

beforeAll(async () => {
  live = await LiveServer.start({ metrics: true });
  plain = await LiveServer.start();
  base = `http://127.0.0.1:${live.running.port}`;
});
afterAll(async () => {
  await live?.close();
  await plain?.close();
});

describe('GET /metrics', () => {
  it('counts connections, loaded rooms, stored and relayed updates, cache lookups and queues', async () => {
    const { orgId, admin } = await live.t.org();
    const room = spaceRoom(await live.space(orgId, admin.token));
    const writer = live.provider(room, admin.token);
    const reader = live.provider(room, admin.token);
    await Promise.all([synced(writer), synced(reader)]);
    writer.doc.getText('t').insert(0, 'counted');
    await acknowledged(writer);
    await waitFor(() => reader.doc.getText('t').toString() === 'counted', 'the relay');
    await live.t.get(`/v1/orgs/${orgId}`, admin.token);

    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(sample(text, 'quire_sync_connections')).toBe(2);
    expect(sample(text, 'quire_sync_rooms_loaded')).toBe(1);
    expect(sample(text, 'quire_sync_updates_stored_total')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'quire_sync_updates_relayed_total')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'quire_read_model_lookups_total{kind="entry",result="hit"}')).toBeGreaterThan(0);
    expect(sample(text, 'quire_job_queue_depth{queue="webhook_deliveries"}')).toBe(0);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    // The journal sits in front of the embedded database only; each relay waited for one of its syncs.
    if (testAdapter() === 'pglite') expect(sample(text, 'quire_journal_sync_seconds_count')).toBeGreaterThanOrEqual(1);

    writer.destroy();
    reader.destroy();
    await waitFor(async () => sample(await (await fetch(`${base}/metrics`)).text(), 'quire_sync_connections') === 0, 'both gone');
  });

  it("is never a site's page on the site's own hostname", async () => {
    const { orgId, admin } = await live.t.org();
    const spaceId = await live.space(orgId, admin.token);
    const site = (await live.t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Handbook', spaces: [spaceId] })).body;
    await live.t.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`, admin.token);
    await live.db.query('UPDATE sites SET hostname = $1, hostname_verified_at = now() WHERE id = $2', [SITE_HOST, site.id]);
    const atSite = await getAtHost(live.running.port, SITE_HOST, '/metrics');
    expect(atSite.status).toBe(404);
    expect(atSite.text).toContain('Handbook');
    expect(atSite.text).not.toContain('quire_sync_connections');
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
  });

  it('is off unless METRICS=on', async () => {
    const res = await fetch(`http://127.0.0.1:${plain.running.port}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('nodejs_');
  });
});

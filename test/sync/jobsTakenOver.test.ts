import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPage, listPages } from '@quire/shared/content/pages';
import { spaceRoom } from '@quire/shared/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../../sync-server/src/testing/databases';
import { synced, waitFor } from '../../sync-server/src/testing/syncClients';
import { WebhookReceiver } from '../../sync-server/src/testing/webhookReceiver';
import { ServerProcess, bearerClient } from './serverProcess';

/**
 * Background work of an instance that dies is finished by another one: the revision its
 * typists were owed once their edits went quiet, and the webhook delivery it was sending.
 */

const TOKEN = `qt_jobs_${Math.random().toString(36).slice(2)}`;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function instance(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-instance-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = await ServerProcess.create({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_TOKEN: TOKEN,
    ALLOW_PRIVATE_FETCH: 'true',
    ...env,
  });
  cleanups.push(() => server.kill('SIGTERM'));
  await server.start();
  return server;
}

describe('two instances on one PostgreSQL, one of them killed', () => {
  // On PostgreSQL in both runs: the embedded database serves one process.
  it('the survivor cuts the revision of edits the dead instance never got to cut', { timeout: 120_000 }, async () => {
    const pg = await freshPostgresUrl();
    cleanups.push(pg.drop);
    // A quiet period far longer than the test waits for: only a takeover can cut in time.
    const a = await instance(pg.url, { QUIET_MS: '600000' });
    const b = await instance(pg.url, { QUIET_MS: '1000' });
    const spaceId = await a.createSpace(TOKEN);
    const onA = bearerClient(a, spaceRoom(spaceId), TOKEN, cleanups);
    const onB = bearerClient(b, spaceRoom(spaceId), TOKEN, cleanups);
    await Promise.all([synced(onA), synced(onB)]);

    createPage(onA.doc, { title: 'Typed before the crash' });
    // Stored and relayed: the other instance's client has it.
    const titles = () => JSON.stringify(listPages(onB.doc));
    await waitFor(() => titles().includes('Typed before the crash'), 'the page to reach the client of the other instance', 10_000);
    await a.kill();
    onB.destroy();

    const content = async () => JSON.stringify((await b.request('GET', `/v1/spaces/${spaceId}/content`, TOKEN)).body);
    await waitFor(async () => (await content()).includes('Typed before the crash'), 'the survivor to cut the revision', 60_000);
  });

  it('the survivor sends the webhook delivery the dead instance was in the middle of, signed as before', { timeout: 180_000 }, async () => {
    const pg = await freshPostgresUrl();
    cleanups.push(pg.drop);
    const hook = await WebhookReceiver.start();
    cleanups.push(() => hook.close());
    // The first attempt never gets an answer: the instance sending it dies while it waits.
    hook.answer = ({ n }) => (n === 0 ? 'hang' : 200);
    const env = { WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_RETRY_BASE_MS: '1000' };
    const a = await instance(pg.url, env);
    const orgId = (await a.request('GET', '/v1/orgs', TOKEN)).body.items[0].id as string;
    const created = await a.request('POST', `/v1/orgs/${orgId}/webhooks`, TOKEN, { url: hook.url, events: ['comment.created'] });
    expect(created.status).toBe(201);
    hook.secret = created.body.secret;
    const spaceId = await a.createSpace(TOKEN);
    expect((await a.request('POST', `/v1/spaces/${spaceId}/comments`, TOKEN, { body: { markdown: 'first' } })).status).toBe(200);
    await hook.waitFor((r) => r.received.length === 1, 20_000, 'the first attempt');
    await a.kill();

    const b = await instance(pg.url, env);
    await hook.waitFor((r) => r.accepted().length === 1, 60_000, 'the delivery from the survivor');
    const [first, again] = hook.received;
    expect(again!.payload.id).toBe(first!.payload.id);
    expect(again!.payload.type).toBe('comment.created');
    expect(again!.verified).toBe(true);
    // Taken once: no instance sends it again after it was accepted.
    await new Promise((r) => setTimeout(r, 4000));
    expect(hook.received.length).toBe(2);
    expect(b.port).not.toBe(a.port);
  });
});

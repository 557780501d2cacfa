import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPage, listPages } from '@quire/shared/content/pages';
import { spaceRoom } from '@quire/shared/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../../sync-server/src/testing/databases';
import { synced, waitFor } from '../../sync-server/src/testing/syncClients';
import { WebhookReceiver } from '../../sync-server/src/testing/webhookReceiver';
import { ServerProcess, availableBuses, bearerClient, busEnv } from './serverProcess';

/**
 * Background work of an instance that dies is finished by another one: the revision its
 * typists were owed once their edits went quiet, the webhook delivery it was sending, and
 * the translation run it was in the middle of. On each bus between instances.
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

/**
 * A LibreTranslate-compatible service (`POST /translate`) that "translates" by tagging each
 * text with the target language; `hang` holds the next answers back for good.
 */
async function fakeTranslator(): Promise<{ url: string; requests: number; hang: boolean; close(): void }> {
  const state = { url: '', requests: 0, hang: false, close: () => {} };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      state.requests++;
      if (state.hang) return;
      const body = JSON.parse(raw);
      const out = (body.q as string[]).map((q) => `${String(body.target).toUpperCase()} ${q}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translatedText: out }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => {
    server.closeAllConnections();
    server.close();
  };
  return state;
}

const buses = await availableBuses();

describe.each(buses)('two instances on one PostgreSQL, one of them killed (%s bus)', (bus) => {
  // On PostgreSQL in both runs: the embedded database serves one process.
  it('the survivor cuts the revision of edits the dead instance never got to cut', { timeout: 120_000 }, async () => {
    const pg = await freshPostgresUrl();
    cleanups.push(pg.drop);
    // A quiet period far longer than the test waits for: only a takeover can cut in time.
    const a = await instance(pg.url, { QUIET_MS: '600000', ...busEnv(bus) });
    const b = await instance(pg.url, { QUIET_MS: '1000', ...busEnv(bus) });
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
    const env = { WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_RETRY_BASE_MS: '1000', ...busEnv(bus) };
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

  it('the survivor resumes the translation run the dead instance was in the middle of', { timeout: 180_000 }, async () => {
    const pg = await freshPostgresUrl();
    cleanups.push(pg.drop);
    const mt = await fakeTranslator();
    cleanups.push(() => mt.close());
    const env = { QUIET_MS: '500', TRANSLATION_PROVIDER_URL: mt.url, ...busEnv(bus) };
    const a = await instance(pg.url, env);
    const b = await instance(pg.url, env);
    const orgId = (await a.request('GET', '/v1/orgs', TOKEN)).body.items[0].id as string;
    const spaceId = await a.createSpace(TOKEN);
    const writer = bearerClient(a, spaceRoom(spaceId), TOKEN, cleanups);
    await synced(writer);
    createPage(writer.doc, { title: 'Welcome aboard' });
    const content = async (id: string) => JSON.stringify((await b.request('GET', `/v1/spaces/${id}/content`, TOKEN)).body);
    await waitFor(async () => (await content(spaceId)).includes('Welcome aboard'), 'the source revision', 30_000);
    writer.destroy();

    // A's run sends the page to the translator, which never answers it: A dies waiting.
    mt.hang = true;
    const created = await a.request('POST', `/v1/orgs/${orgId}/translations`, TOKEN, { source: { space: spaceId }, language: 'fr' });
    expect(created.status).toBe(200);
    const url = `/v1/orgs/${orgId}/translations/${created.body.id}`;
    expect((await a.request('POST', `${url}/run`, TOKEN)).status).toBe(204);
    await waitFor(() => mt.requests === 1, 'the run on A to reach the translator', 30_000);
    expect((await b.request('GET', url, TOKEN)).body.status).toBe('running');
    await a.kill();
    mt.hang = false;

    // Nobody asks for another run: the survivor takes this one over once its lease runs out.
    let translation: any;
    await waitFor(
      async () => {
        translation = (await b.request('GET', url, TOKEN)).body;
        return translation.status === 'completed';
      },
      'the survivor to finish the run',
      90_000,
    );
    expect(translation.stats.runs).toBe(1);
    expect(await content(translation.result.space)).toContain('FR Welcome aboard');
    expect(mt.requests).toBe(2);
  });
});

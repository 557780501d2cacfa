import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deletePage } from '@quire/shared/content/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { editBranch } from '../../core/content/revisions';
import { runTranslation } from '../../core/translations/run';
import { runDueTranslations } from '../../core/translations/schedule';
import type { TranslateRequest, TranslationProvider } from '../../core/translations/provider';
import { rewritePage, writePages } from '../../sites/testContent';
import { TestServer, type TestUser } from '../../testing/harness';

/**
 * A LibreTranslate-compatible service: `POST /translate` with `{q: string[], source,
 * target, format}` answers `{translatedText: string[]}`. It "translates" by tagging each
 * text with the target language (`FR Welcome`), so the test sees exactly what was sent and where it went.
 */
interface FakeMt {
  requests: { q: string[]; source: string; target: string; format: string; api_key?: string }[];
  failing: boolean;
}
const mt: FakeMt = { requests: [], failing: false };
let mtServer: Server;
let mtUrl = '';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
  mtServer = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/translate') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not Found' }));
        return;
      }
      if (mt.failing) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'model not loaded' }));
        return;
      }
      const body = JSON.parse(raw);
      mt.requests.push(body);
      const out = (body.q as string[]).map((q) => `${body.target.toUpperCase()} ${q}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translatedText: out }));
    });
  });
  await new Promise<void>((resolve) => mtServer.listen(0, '127.0.0.1', resolve));
  mtUrl = `http://127.0.0.1:${(mtServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  mtServer?.closeAllConnections();
  mtServer?.close();
  await t?.close();
});

const SOURCE_MARKDOWN = [
  'Install the **command line** first. See [the guide](https://example.com/guide) for {{ space.vars.product }}.',
  '',
  '```bash',
  'npm install quire # keep this',
  '```',
  '',
  'Run `quire init` then open https://quire.example/app in a browser.',
  '',
].join('\n');

async function fixture() {
  const { orgId, admin, members } = await t.org(['create', 'read']);
  const space = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Handbook', language: 'en' });
  expect(space.status).toBe(201);
  const [intro, setup] = await writePages(t.db, space.body.id, [
    { title: 'Introduction', markdown: 'Welcome to the handbook.\n' },
    { title: 'Setup', markdown: SOURCE_MARKDOWN },
  ]);
  return {
    orgId,
    spaceId: space.body.id as string,
    intro: intro as string,
    setup: setup as string,
    admin,
    creator: members[0] as TestUser,
    reader: members[1] as TestUser,
  };
}

/** Waits for the background run the API started to end. */
async function settled(orgId: string, id: string, token: string) {
  for (let i = 0; i < 500; i++) {
    const res = await t.get(`/v1/orgs/${orgId}/translations/${id}`, token);
    if (res.body.status === 'completed' || res.body.status === 'failed') return res.body;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('translation run did not finish');
}

async function pageMarkdown(spaceId: string, pageId: string, token: string): Promise<string> {
  const res = await t.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`, token);
  expect(res.status).toBe(200);
  return res.body.markdown;
}

describe('translations', () => {
  it('creates, reads, lists, changes instructions and deletes', async () => {
    const f = await fixture();
    const instructions = { object: 'document', data: { schemaVersion: 1 }, nodes: [{ object: 'block', type: 'paragraph', nodes: [] }] };
    const created = await t.post(`/v1/orgs/${f.orgId}/translations`, f.creator.token, {
      source: { space: f.spaceId },
      language: 'fr',
      instructions,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      object: 'translation',
      status: 'pending',
      source: { space: f.spaceId },
      language: 'fr',
      instructions,
      stats: { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 },
      permissions: { view: true, edit: true },
      urls: { location: `http://quire.test/v1/orgs/${f.orgId}/translations/${created.body.id}` },
    });
    expect(created.body.result).toBeUndefined();
    const url = `/v1/orgs/${f.orgId}/translations/${created.body.id}`;
    const got = await t.get(url, f.reader.token);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ...created.body, permissions: { view: true, edit: false } });
    const list = await t.get(`/v1/orgs/${f.orgId}/translations?limit=1`, f.reader.token);
    expect(list.body).toMatchObject({ count: 1, items: [{ id: created.body.id }] });

    const next = {
      object: 'document',
      data: { schemaVersion: 1 },
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'Use tu.' }] }] }],
    };
    const put = await t.put(url, f.creator.token, { instructions: next });
    expect(put.status).toBe(200);
    expect(put.body.instructions).toEqual(next);

    expect((await t.delete(url, f.creator.token)).status).toBe(204);
    expect((await t.delete(url, f.creator.token)).status).toBe(204);
    const gone = await t.get(url, f.creator.token);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe('No matching translation found.');
  });

  it('refuses bad input: unknown source space, bad language, missing fields, unknown fields', async () => {
    const f = await fixture();
    const post = (b: unknown) => t.post(`/v1/orgs/${f.orgId}/translations`, f.creator.token, b);
    const lang = await post({ source: { space: f.spaceId }, language: 'French!' });
    expect(lang.status).toBe(400);
    expect(lang.body.error.message).toBe('Invalid body field "language": must be a language code such as en or pt-BR.');
    const noSource = await post({ language: 'fr' });
    expect(noSource.status).toBe(400);
    expect(noSource.body.error.message).toMatch(/^Missing body field "source"/);
    expect((await post({ source: { space: f.spaceId }, language: 'fr', colour: 1 })).body.error.message).toBe(
      'Unknown body field: "colour".',
    );
    expect((await post({ source: { space: 'not an id' }, language: 'fr' })).status).toBe(400);
    const unknown = await post({ source: { space: 'AAAAAAAAAAAAAAAAAAAAAA' }, language: 'fr' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('No matching space found.');
    // A space of another organization is as unknown as one that does not exist.
    const other = await fixture();
    expect((await post({ source: { space: other.spaceId }, language: 'fr' })).status).toBe(404);

    const created = (await post({ source: { space: f.spaceId }, language: 'fr' })).body;
    const url = `/v1/orgs/${f.orgId}/translations/${created.id}`;
    expect((await t.put(url, f.creator.token, {})).status).toBe(400);
    const badDoc = await t.put(url, f.creator.token, { instructions: 'be nice' });
    expect(badDoc.status).toBe(400);
    expect(badDoc.body.error.message).toMatch(/^Invalid body field "instructions"/);
    expect((await t.get(`/v1/orgs/${f.orgId}/translations?limit=0`, f.creator.token)).status).toBe(400);
    expect((await t.post(`/v1/orgs/${f.orgId}/translations/AAAAAAAAAAAAAAAAAAAAAA/run`, f.creator.token)).status).toBe(404);
  });

  it('refuses callers without a token, without the create role, and from other organizations', async () => {
    const f = await fixture();
    const created = (await t.post(`/v1/orgs/${f.orgId}/translations`, f.creator.token, { source: { space: f.spaceId }, language: 'de' }))
      .body;
    const base = `/v1/orgs/${f.orgId}/translations`;
    const url = `${base}/${created.id}`;
    const doc = { object: 'document', data: { schemaVersion: 1 }, nodes: [] };
    const calls: [string, string, unknown?][] = [
      ['GET', base],
      ['POST', base, { source: { space: f.spaceId }, language: 'de' }],
      ['GET', url],
      ['PUT', url, { instructions: doc }],
      ['DELETE', url],
      ['POST', `${url}/run`],
    ];
    const stranger = await t.user();
    for (const [method, path, body] of calls) {
      expect((await t.request(method, path, { body })).status, `${method} ${path} without a token`).toBe(401);
      // DELETE answers 204 whether or not there was anything the caller could delete.
      const hidden = method === 'DELETE' ? 204 : 404;
      expect((await t.request(method, path, { body, token: stranger.token })).status, `${method} ${path} by a stranger`).toBe(hidden);
    }
    for (const [method, path, body] of calls.filter(([m]) => m !== 'GET')) {
      const res = await t.request(method, path, { body, token: f.reader.token });
      expect(res.status, `${method} ${path} by a reader`).toBe(403);
      expect(res.body.error.message).toBe('This needs the create role in the organization.');
    }
    expect((await t.get(url, f.creator.token)).body.status).toBe('pending');
  });

  it('fails a run with a clear reason when no provider is configured, translating nothing', async () => {
    expect(loadConfig({ TRANSLATION_PROVIDER_URL: ' http://mt.internal:5000 ', TRANSLATION_PROVIDER_KEY: '' }).translation).toEqual({
      providerUrl: 'http://mt.internal:5000',
      providerKey: undefined,
    });
    t.deps.config.translation = loadConfig({}).translation;
    const f = await fixture();
    const created = (await t.post(`/v1/orgs/${f.orgId}/translations`, f.creator.token, { source: { space: f.spaceId }, language: 'fr' }))
      .body;
    expect((await t.post(`/v1/orgs/${f.orgId}/translations/${created.id}/run`, f.creator.token)).status).toBe(204);
    const done = await settled(f.orgId, created.id, f.creator.token);
    expect(done).toMatchObject({
      status: 'failed',
      error: { code: 'NO_PROVIDER' },
      stats: { runs: 1, totalWords: 0, totalPages: 0, latestPages: 0 },
    });
    expect(done.error.message).toMatch(/^No translation provider is configured: set TRANSLATION_PROVIDER_URL/);
    expect(done.result).toBeUndefined();
  });

  it('translates text through a LibreTranslate service, keeping code, links and variables, and keeps the result in step', async () => {
    t.deps.config.translation = { providerUrl: mtUrl, providerKey: 'k-123' };
    mt.requests = [];
    const f = await fixture();
    const created = (await t.post(`/v1/orgs/${f.orgId}/translations`, f.creator.token, { source: { space: f.spaceId }, language: 'fr' }))
      .body;
    expect((await t.post(`/v1/orgs/${f.orgId}/translations/${created.id}/run`, f.creator.token)).status).toBe(204);
    const first = await settled(f.orgId, created.id, f.creator.token);
    expect(first).toMatchObject({ status: 'completed', stats: { runs: 1, totalPages: 2, latestPages: 2 } });
    expect(first.error).toBeUndefined();
    expect(first.stats.latestWords).toBeGreaterThan(10);
    expect(first.stats.totalWords).toBe(first.stats.latestWords);
    expect(first.stats.totalDuration).toBe(first.stats.latestRunDuration);
    expect(first.result.revision).toMatch(/^[A-Za-z0-9]{20,}$/);
    expect(mt.requests.every((r) => r.source === 'en' && r.target === 'fr' && r.format === 'html' && r.api_key === 'k-123')).toBe(true);
    const sent = mt.requests.flatMap((r) => r.q);
    expect(sent.some((q) => q.includes('npm install'))).toBe(false);
    expect(sent.some((q) => q.includes('{{') || q.includes('https://'))).toBe(false);
    expect(sent).not.toContain('quire init');

    const resultSpace = first.result.space as string;
    expect(resultSpace).not.toBe(f.spaceId);
    const space = await t.get(`/v1/spaces/${resultSpace}`, f.admin.token);
    expect(space.body).toMatchObject({ language: 'fr' });
    const pages = await t.get(`/v1/spaces/${resultSpace}/content/pages`, f.admin.token);
    expect(pages.body.pages.map((p: { title: string }) => p.title)).toEqual(['FR Introduction', 'FR Setup']);
    const setup = await pageMarkdown(resultSpace, f.setup, f.admin.token);
    // Each paragraph went whole, its marks as tags, and came back with them.
    expect(sent).toContain('Install the <b>command line</b> first. See <a href="#q0">the guide</a> for <span data-q="0"></span>.');
    expect(setup).toContain('FR Install the **command line** first. See [the guide](https://example.com/guide) for');
    expect(setup).toContain('{{ space.vars.product }}');
    expect(setup).toContain('```bash\nnpm install quire # keep this\n```');
    expect(setup).toContain('`quire init`');
    expect(setup).toContain('https://quire.example/app');

    // A second run translates only what changed since, and moves the result with it.
    mt.requests = [];
    await rewritePage(t.db, f.spaceId, f.intro, 'Welcome to the new handbook.\n');
    await t.post(`/v1/orgs/${f.orgId}/translations/${created.id}/run`, f.creator.token);
    // Once the run is asked for, the previous run's outcome is no longer shown as current.
    const queued = await t.get(`/v1/orgs/${f.orgId}/translations/${created.id}`, f.creator.token);
    expect(['pending', 'running']).toContain(queued.body.status);
    const second = await settled(f.orgId, created.id, f.creator.token);
    expect(second).toMatchObject({
      status: 'completed',
      result: { space: resultSpace },
      stats: { runs: 2, latestPages: 1, totalPages: 3 },
    });
    expect(second.stats.totalWords).toBe(first.stats.latestWords + second.stats.latestWords);
    expect(second.result.revision).not.toBe(first.result.revision);
    expect(mt.requests.flatMap((r) => r.q)).toEqual(['Introduction', 'Welcome to the new handbook.']);
    expect(await pageMarkdown(resultSpace, f.intro, f.admin.token)).toBe('FR Welcome to the new handbook.\n');

    // A page removed from the source leaves the result too, without translating anything.
    mt.requests = [];
    await t.db.transaction((tx) => editBranch(tx, { spaceId: f.spaceId }, (doc) => deletePage(doc, f.setup)));
    await t.post(`/v1/orgs/${f.orgId}/translations/${created.id}/run`, f.creator.token);
    const third = await settled(f.orgId, created.id, f.creator.token);
    expect(third.stats).toMatchObject({ runs: 3, latestPages: 0, latestWords: 0, totalPages: 3 });
    expect(mt.requests).toEqual([]);
    const left = await t.get(`/v1/spaces/${resultSpace}/content/pages`, f.admin.token);
    expect(left.body.pages.map((p: { title: string }) => p.title)).toEqual(['FR Introduction']);
  });

  it('reports a provider failure as the run error and keeps the last result', async () => {
    t.deps.config.translation = { providerUrl: mtUrl };
    const f = await fixture();
    const created = (await t.post(`/v1/orgs/${f.orgId}/translations`, f.creator.token, { source: { space: f.spaceId }, language: 'es' }))
      .body;
    mt.failing = true;
    try {
      await t.post(`/v1/orgs/${f.orgId}/translations/${created.id}/run`, f.creator.token);
      const failed = await settled(f.orgId, created.id, f.creator.token);
      expect(failed).toMatchObject({
        status: 'failed',
        error: { code: 'PROVIDER_ERROR', message: 'The translation provider answered HTTP 500: model not loaded' },
      });
      expect(failed.stats).toMatchObject({ runs: 1, totalWords: 0, totalPages: 0 });
    } finally {
      mt.failing = false;
    }
    await t.post(`/v1/orgs/${f.orgId}/translations/${created.id}/run`, f.creator.token);
    const ok = await settled(f.orgId, created.id, f.creator.token);
    expect(ok).toMatchObject({ status: 'completed', stats: { runs: 2, latestPages: 2 } });
    expect(ok.error).toBeUndefined();
  });

  it('passes instructions as text to a provider that accepts them', async () => {
    const f = await fixture();
    const instructions = {
      object: 'document',
      data: { schemaVersion: 1 },
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'Address the reader informally.' }] }] }],
    };
    const created = (
      await t.post(`/v1/orgs/${f.orgId}/translations`, f.creator.token, { source: { space: f.spaceId }, language: 'de', instructions })
    ).body;
    const seen: TranslateRequest[] = [];
    const provider: TranslationProvider = {
      name: 'instructed',
      acceptsInstructions: true,
      async translate(req) {
        seen.push(req);
        return req.texts.map((x) => `(de) ${x}`);
      },
    };
    await runTranslation(t.deps, created.id, provider);
    expect((await t.get(`/v1/orgs/${f.orgId}/translations/${created.id}`, f.creator.token)).body.status).toBe('completed');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((r) => r.instructions === 'Address the reader informally.' && r.target === 'de')).toBe(true);
  });

  it('says when the source changed since the last run, and keeps fixes made by hand in the translation', async () => {
    t.deps.config.translation = { providerUrl: mtUrl };
    const f = await fixture();
    const [guide] = await writePages(t.db, f.spaceId, [{ title: 'Guide', markdown: 'Alpha one.\n\nBeta two.\n\nGamma three.\n' }]);
    const created = (await t.post(`/v1/orgs/${f.orgId}/translations`, f.creator.token, { source: { space: f.spaceId }, language: 'fr' }))
      .body;
    const run = async () => {
      mt.requests = [];
      await t.post(`/v1/orgs/${f.orgId}/translations/${created.id}/run`, f.creator.token);
      return settled(f.orgId, created.id, f.creator.token);
    };
    const first = await run();
    expect(first).toMatchObject({ status: 'completed', outdated: false, conflicts: [] });
    const result = first.result.space as string;
    expect(await pageMarkdown(result, guide!, f.admin.token)).toBe('FR Alpha one.\n\nFR Beta two.\n\nFR Gamma three.\n');

    // A reviewer fixes two paragraphs of the translation; then the source changes the first and the last.
    await rewritePage(t.db, result, guide!, 'FR Alpha one.\n\nBeta corrigé à la main.\n\nGamma corrigé à la main.\n', {
      title: 'Le guide',
    });
    await rewritePage(t.db, f.spaceId, guide!, 'Alpha changed.\n\nBeta two.\n\nGamma changed.\n');
    const stale = await t.get(`/v1/orgs/${f.orgId}/translations/${created.id}`, f.creator.token);
    expect(stale.body).toMatchObject({ status: 'completed', outdated: true });

    const second = await run();
    expect(second).toMatchObject({ status: 'completed', outdated: false });
    // Only the changed paragraph nobody fixed was sent; the fixed title stays too.
    expect(mt.requests.flatMap((r) => r.q)).toEqual(['Alpha changed.']);
    expect(await pageMarkdown(result, guide!, f.admin.token)).toBe(
      'FR Alpha changed.\n\nBeta corrigé à la main.\n\nGamma corrigé à la main.\n',
    );
    const pages = await t.get(`/v1/spaces/${result}/content/pages`, f.admin.token);
    expect(pages.body.pages.map((p: { title: string }) => p.title)).toContain('Le guide');
    expect(second.conflicts).toEqual([
      {
        page: guide,
        title: 'Guide',
        message:
          '1 block was changed in the source after being fixed by hand in the translation: the fix was kept; check it against the new source.',
      },
    ]);

    // The next run has nothing to do and nothing to report; the fixes are still there.
    const third = await run();
    expect(third).toMatchObject({ outdated: false, conflicts: [] });
    expect(mt.requests).toEqual([]);
    expect(await pageMarkdown(result, guide!, f.admin.token)).toContain('Gamma corrigé à la main.');

    // A translation given a new paragraph by hand is left whole when its source changes again.
    await rewritePage(t.db, result, guide!, 'FR Alpha changed.\n\nAjouté.\n\nBeta corrigé à la main.\n\nGamma corrigé à la main.\n');
    await rewritePage(t.db, f.spaceId, guide!, 'Alpha changed again.\n\nBeta two.\n\nGamma changed.\n');
    const fourth = await run();
    expect(mt.requests).toEqual([]);
    expect(fourth.conflicts).toHaveLength(1);
    expect(fourth.conflicts[0].message).toMatch(/^The source page changed, and the translated page was edited by hand/);
    expect(await pageMarkdown(result, guide!, f.admin.token)).toContain('Ajouté.');
  });

  it('runs an out-of-date translation again on the schedule the organization sets', async () => {
    t.deps.config.translation = { providerUrl: mtUrl };
    const f = await fixture();
    const url = `/v1/orgs/${f.orgId}/translations`;
    const created = (await t.post(url, f.creator.token, { source: { space: f.spaceId }, language: 'it', schedule: 'hourly' })).body;
    expect(created.schedule).toBe('hourly');
    const manual = (await t.post(url, f.creator.token, { source: { space: f.spaceId }, language: 'pt' })).body;
    expect(manual.schedule).toBe('manual');
    expect((await t.put(`${url}/${created.id}`, f.creator.token, { schedule: 'daily' })).body.schedule).toBe('daily');
    expect((await t.put(`${url}/${created.id}`, f.creator.token, { schedule: 'monthly' })).status).toBe(400);
    expect((await t.put(`${url}/${created.id}`, f.creator.token, {})).status).toBe(400);
    for (const id of [created.id, manual.id]) {
      await t.post(`${url}/${id}/run`, f.creator.token);
      await settled(f.orgId, id, f.creator.token);
    }
    const later = (hours: number) => new Date(Date.now() + hours * 3600_000);
    // Up to date: nothing is due, however late.
    expect(await runDueTranslations(t.deps, later(48))).toEqual([]);

    await rewritePage(t.db, f.spaceId, f.intro, 'Welcome to the revised handbook.\n');
    expect((await t.get(`${url}/${created.id}`, f.creator.token)).body.outdated).toBe(true);
    // Out of date, but run less than a day ago; the manual one never runs by itself.
    expect(await runDueTranslations(t.deps, later(2))).toEqual([]);
    expect(await runDueTranslations(t.deps, later(25))).toEqual([created.id]);
    const rerun = await settled(f.orgId, created.id, f.creator.token);
    expect(rerun).toMatchObject({ status: 'completed', outdated: false, stats: { runs: 2, latestPages: 1 } });
    expect(await pageMarkdown(rerun.result.space, f.intro, f.admin.token)).toBe('IT Welcome to the revised handbook.\n');
    expect((await t.get(`${url}/${manual.id}`, f.creator.token)).body).toMatchObject({ outdated: true, stats: { runs: 1 } });
  });
});

import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { updatePage } from '@quire/shared/content/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRevisionFiles } from '../../core/content/export';
import { GitRunner } from '../../core/git/runner';
import { type Db, mayWrite } from '../../store/db';
import { claimGitOperation } from '../../store/git';
import { UNKNOWN_ID, expectError } from '../../testing/apiExpect';
import { handWrittenRepository, png } from '../../testing/docsRepository';
import { GitServer, git } from '../../testing/gitServer';
import { TestServer, type TestUser } from '../../testing/harness';
import { waitFor } from '../../testing/syncClients';
import { editLive } from '../../testing/testEdits';

let t: TestServer;
let g: GitServer;
let runner: GitRunner;
let dataDir: string;
let orgId: string;
let admin: TestUser;
let reader: TestUser;
let editor: TestUser;

const REPO = handWrittenRepository();

beforeAll(async () => {
  g = await GitServer.start({ user: 'ada-writer', password: 's3cret-token' });
  g.createRepository('docs', REPO);
  dataDir = mkdtempSync(join(tmpdir(), 'quire-git-data-'));
  // The git server is on loopback: the fetch guard lets it through only when told to.
  t = await TestServer.start({ allowPrivateFetch: true, dataDir });
  runner = new GitRunner(t.deps);
  const o = await t.org(['read', 'edit']);
  orgId = o.orgId;
  admin = o.admin;
  reader = o.members[0]!;
  editor = o.members[1]!;
});
afterAll(async () => {
  await runner?.stop();
  await t?.close();
  await g?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function newSpace(title = 'Docs'): Promise<string> {
  return (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title })).body.id;
}

/** Asks for an operation, runs the queue, and answers git/info. */
async function operate(spaceId: string, direction: 'import' | 'export', body: Record<string, unknown>, token = admin.token) {
  const asked = await t.post(`/v1/spaces/${spaceId}/git/${direction}`, token, body);
  expect(asked.status, JSON.stringify(asked.body)).toBe(204);
  await runner.runOnce();
  const info = await t.get(`/v1/spaces/${spaceId}/git/info`, token);
  expect(info.status).toBe(200);
  return info.body;
}

interface TreePage {
  id: string;
  title: string;
  type: string;
  slug: string;
  pages: TreePage[];
}
const outline = (pages: TreePage[]): unknown[] => pages.map((p) => [p.title, ...(p.pages.length ? [outline(p.pages)] : [])]);

describe('git/import', () => {
  it('an empty queue is looked at with reads alone', async () => {
    const statements: string[] = [];
    const db = Object.create(t.db, {
      query: { value: (sql: string, params?: unknown[]) => (statements.push(sql), t.db.query(sql, params)) },
    }) as Db;
    expect(await new GitRunner({ ...t.deps, db }).runOnce()).toBe(0);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter(mayWrite)).toEqual([]);
  });

  it('imports a ref of a repository over smart HTTP: pages, nesting, images; git/info tells it went well', async () => {
    const spaceId = await newSpace();
    expectError(await t.get(`/v1/spaces/${spaceId}/git/info`, admin.token), 404, 'No matching git sync found.');
    const asked = await t.post(`/v1/spaces/${spaceId}/git/import`, admin.token, { url: g.url('docs'), ref: 'refs/heads/main' });
    expect(asked.status).toBe(204);
    // Asked for, not run yet.
    expect((await t.get(`/v1/spaces/${spaceId}/git/info`, admin.token)).body.operation).toMatchObject({
      state: 'running',
      direction: 'import',
    });
    expect(await runner.runOnce()).toBe(1);

    const info = (await t.get(`/v1/spaces/${spaceId}/git/info`, admin.token)).body;
    const head = g.log('docs')[0]!.hash;
    expect(info).toEqual({
      repoName: 'docs',
      installationStatus: 'active',
      installationProvider: 'generic',
      installationId: spaceId,
      url: `${g.origin}/docs.git`,
      ref: 'refs/heads/main',
      operation: {
        state: 'success',
        direction: 'import',
        startedAt: expect.any(String),
        endedAt: expect.any(String),
        commit: head,
      },
      operationTimeout: t.deps.config.git.timeoutMs,
      updatedAt: info.operation.endedAt,
    });

    const content = (await t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body;
    expect(outline(content.pages)).toEqual([
      ['Introduction'],
      ['Get Started', [['Quickstart'], ['Installation', [['On Linux']]], ['Account settings', [['Billing']]]]],
      ['Git Sync & Backups', [['Troubleshooting'], ['Changelog']]],
      ['Status page'],
    ]);
    const cover = content.files.find((f: { name: string }) => f.name === 'cover (1).png');
    const bytes = Buffer.from(await (await t.app.request(cover.downloadURL)).arrayBuffer());
    expect(bytes).toEqual(Buffer.from(REPO['.gitbook/assets/cover (1).png'] as Uint8Array));
    const linux = content.pages[1].pages[1].pages[0];
    const page = (await t.get(`/v1/spaces/${spaceId}/content/page/${linux.id}?format=markdown`, admin.token)).body;
    expect(page.markdown).toContain('Tested on <mark>Debian</mark> and Fedora.');
    // Credentials are gone from the row once it ended.
    const rows = await t.db.query<{ credentials: string | null }>('SELECT credentials FROM git_operations WHERE space_id = $1', [spaceId]);
    expect(rows).toEqual([{ credentials: null }]);
  });

  it("imports again: the space's content becomes the repository's, nothing doubled", async () => {
    const spaceId = await newSpace();
    await operate(spaceId, 'import', { url: g.url('docs'), ref: 'main' });
    const first = (await t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body;
    const info = await operate(spaceId, 'import', { url: g.url('docs'), ref: 'main' });
    expect(info.operation.state).toBe('success');
    const second = (await t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body;
    expect(outline(second.pages)).toEqual(outline(first.pages));
    expect(second.files.length).toBe(first.files.length);
  });

  it('a wrong password ends in "authentication failed", and no answer carries the credentials', async () => {
    const spaceId = await newSpace();
    const info = await operate(spaceId, 'import', { url: g.url('docs', { user: 'ada-writer', password: 'wrong-passw0rd' }), ref: 'main' });
    expect(info.operation).toMatchObject({
      state: 'failure',
      direction: 'import',
      error: `authentication failed for ${g.origin}/docs.git`,
    });
    expect(info.url).toBe(`${g.origin}/docs.git`);
    const shown = JSON.stringify(info);
    for (const secret of ['wrong-passw0rd', 'ada-writer', 's3cret-token', '@127.0.0.1']) expect(shown).not.toContain(secret);
    const stored = JSON.stringify(await t.db.query('SELECT * FROM git_operations WHERE space_id = $1', [spaceId]));
    expect(stored).not.toContain('wrong-passw0rd');
    expect(stored).not.toContain('ada-writer');
    // Nothing was imported.
    expect((await t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body.pages).toEqual([]);
  });

  it('no credentials at all: authentication failed too', async () => {
    const spaceId = await newSpace();
    const info = await operate(spaceId, 'import', { url: g.url('docs', false), ref: 'main' });
    expect(info.operation.error).toBe(`authentication failed for ${g.origin}/docs.git`);
  });

  it('an unknown ref ends in "ref not found"; an unknown repository in "repository not found"', async () => {
    const spaceId = await newSpace();
    expect((await operate(spaceId, 'import', { url: g.url('docs'), ref: 'refs/heads/nope' })).operation).toMatchObject({
      state: 'failure',
      error: 'ref not found: nope',
    });
    expect((await operate(spaceId, 'import', { url: g.url('missing'), ref: 'main' })).operation.error).toBe(
      `repository not found: ${g.origin}/missing.git`,
    );
  });

  it('standalone: opens a change request holding the repository, main unchanged', async () => {
    const spaceId = await newSpace();
    await t.post(`/v1/spaces/${spaceId}/content/template`, admin.token, { id: 'getting-started' });
    const before = (await t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body;
    const info = await operate(spaceId, 'import', { url: g.url('docs'), ref: 'main', standalone: true }, editor.token);
    expect(info.operation.state).toBe('success');
    const crId = info.operation.changeRequest as string;
    const cr = await t.get(`/v1/spaces/${spaceId}/change-requests/${crId}`, admin.token);
    // Opened as every change request is: a draft, for its author to ask reviews of.
    expect(cr.body).toMatchObject({ id: crId, status: 'draft', subject: 'Import from main' });
    const inCr = (await t.get(`/v1/spaces/${spaceId}/change-requests/${crId}/content`, admin.token)).body;
    expect(outline(inCr.pages).map((p) => (p as string[])[0])).toEqual([
      'Introduction',
      'Get Started',
      'Git Sync & Backups',
      'Status page',
    ]);
    expect(outline((await t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body.pages)).toEqual(outline(before.pages));
  });

  it('honours the project folder and its .gitbook.yaml (root, structure.summary, structure.readme)', async () => {
    g.createRepository('mono', {
      'package.json': '{}\n',
      'docs/.gitbook.yaml': 'root: ./content/\nstructure:\n  readme: intro.md\n  summary: toc.md\n',
      'docs/content/toc.md': '# Contents\n\n* [Welcome](intro.md)\n* [Usage](usage/README.md)\n  * [Flags](usage/flags.md)\n',
      'docs/content/intro.md': '# Welcome\n\nHello.\n',
      'docs/content/usage/README.md': '# Usage\n\nRun it.\n',
      'docs/content/usage/flags.md': '# Flags\n\n![logo](../.gitbook/assets/logo.png)\n',
      'docs/content/.gitbook/assets/logo.png': png(3),
      'README.md': '# Not the docs\n',
    });
    const spaceId = await newSpace();
    const info = await operate(spaceId, 'import', { url: g.url('mono'), ref: 'main', repoProjectDirectory: 'docs' });
    expect(info.operation.state).toBe('success');
    expect(info.repoProjectDirectory).toBe('docs');
    const content = (await t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body;
    expect(outline(content.pages)).toEqual([['Welcome'], ['Usage', [['Flags']]]]);
    expect(content.files.map((f: { name: string }) => f.name)).toEqual(['logo.png']);

    const missing = await operate(spaceId, 'import', { url: g.url('mono'), ref: 'main', repoProjectDirectory: 'site' });
    expect(missing.operation).toMatchObject({ state: 'failure', error: 'folder not found in main: site' });
  });

  it('a repository larger than GIT_MAX_BYTES is refused, and the server still answers', async () => {
    // Random bytes do not compress: the pack is at least as large as the file.
    g.createRepository('large', {
      'README.md': '# Large\n',
      '.gitbook/assets/noise.bin': crypto.getRandomValues(new Uint8Array(48 * 1024)),
    });
    const spaceId = await newSpace();
    const saved = t.deps.config.git.maxBytes;
    t.deps.config.git.maxBytes = 16 * 1024;
    try {
      const info = await operate(spaceId, 'import', { url: g.url('large'), ref: 'main' });
      expect(info.operation).toMatchObject({
        state: 'failure',
        error: `repository larger than GIT_MAX_BYTES (16384 bytes): ${g.origin}/large.git`,
      });
    } finally {
      t.deps.config.git.maxBytes = saved;
    }
    expect((await t.get(`/v1/spaces/${spaceId}`, admin.token)).status).toBe(200);
    expect((await t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body.pages).toEqual([]);
  });

  it('a loopback address is refused unless ALLOW_PRIVATE_FETCH', async () => {
    const spaceId = await newSpace();
    t.deps.config.allowPrivateFetch = false;
    const before = g.requests.length;
    try {
      const info = await operate(spaceId, 'import', { url: g.url('docs'), ref: 'main' });
      expect(info.operation).toMatchObject({
        state: 'failure',
        error: `fetching ${g.origin}/docs.git was refused: loopback and private addresses are not fetched unless ALLOW_PRIVATE_FETCH=true`,
      });
    } finally {
      t.deps.config.allowPrivateFetch = true;
    }
    // The request never left.
    expect(g.requests.length).toBe(before);
  });

  it('a repository that does not answer in GIT_TIMEOUT_MS ends in timeout', async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const spaceId = await newSpace();
    const saved = t.deps.config.git.timeoutMs;
    t.deps.config.git.timeoutMs = 300;
    try {
      const info = await operate(spaceId, 'import', {
        url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/docs.git`,
        ref: 'main',
      });
      expect(info.operation).toMatchObject({
        state: 'timeout',
        error: 'the operation took longer than GIT_TIMEOUT_MS (300 ms) and was stopped',
      });
    } finally {
      t.deps.config.git.timeoutMs = saved;
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('an operation left running by a stopped instance is resumed once its lease runs out', async () => {
    const spaceId = await newSpace();
    expect((await t.post(`/v1/spaces/${spaceId}/git/import`, admin.token, { url: g.url('docs'), ref: 'main' })).status).toBe(204);
    // Another instance claimed it, then stopped: its lease is already over.
    const now = new Date();
    const claimed = await claimGitOperation(t.db, now, new Date(now.getTime() - 1));
    expect(claimed?.space_id).toBe(spaceId);
    expect(await runner.runOnce()).toBe(1);
    const info = (await t.get(`/v1/spaces/${spaceId}/git/info`, admin.token)).body;
    expect(info.operation.state).toBe('success');
    const [row] = await t.db.query<{ attempts: number }>('SELECT attempts FROM git_operations WHERE space_id = $1', [spaceId]);
    expect(row?.attempts).toBe(2);
  });

  it('a runner that stops hands its operation back to the queue, and its late end changes nothing', async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const spaceId = await newSpace();
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/docs.git`;
    expect((await t.post(`/v1/spaces/${spaceId}/git/import`, admin.token, { url, ref: 'main' })).status).toBe(204);
    const stopping = new GitRunner(t.deps);
    const running = stopping.runOnce();
    const state = async () =>
      (
        await t.db.query<{ state: string; lease_until: Date | null }>('SELECT state, lease_until FROM git_operations WHERE space_id = $1', [
          spaceId,
        ])
      )[0];
    await waitFor(async () => (await state())?.state === 'running', 'the operation to be claimed');
    await stopping.stop(50);
    expect(await state()).toEqual({ state: 'queued', lease_until: null });
    // The stopped runner's request now fails: what it records is nothing.
    silent.closeAllConnections();
    silent.close();
    await running;
    expect((await state())?.state).toBe('queued');
    // The next runner takes it up (the repository is gone by now).
    expect(await runner.runOnce()).toBe(1);
    expect((await t.get(`/v1/spaces/${spaceId}/git/info`, admin.token)).body.operation).toMatchObject({
      state: 'failure',
      error: expect.stringMatching(/^could not reach http:\/\/127\.0\.0\.1:\d+\/docs\.git: /),
    });
  });

  it("runs a space's operations one at a time, in order, each once, with two runners on the queue", async () => {
    const spaceId = await newSpace();
    g.createBare('ordered');
    await t.post(`/v1/spaces/${spaceId}/git/import`, admin.token, { url: g.url('docs'), ref: 'main' });
    await t.post(`/v1/spaces/${spaceId}/git/export`, admin.token, {
      url: g.url('ordered'),
      ref: 'main',
      commitMessage: 'After the import',
    });
    const other = new GitRunner(t.deps);
    const ran = await Promise.all([runner.runOnce(), other.runOnce()]);
    expect(ran[0] + ran[1]).toBe(2);
    const rows = await t.db.query<{ direction: string; state: string; attempts: number }>(
      'SELECT direction, state, attempts FROM git_operations WHERE space_id = $1 ORDER BY seq',
      [spaceId],
    );
    expect(rows).toEqual([
      { direction: 'import', state: 'success', attempts: 1 },
      { direction: 'export', state: 'success', attempts: 1 },
    ]);
    // The export ran after the import: it holds the imported pages.
    const work = g.checkout('ordered');
    try {
      expect(readFileSync(join(work, 'getting-started/quickstart.md'), 'utf8')).toContain('Quickstart');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('git/export', () => {
  it("pushes one commit with the message on the ref, committed by Quire, holding the space's folder", async () => {
    const spaceId = await newSpace();
    await t.post(`/v1/spaces/${spaceId}/content/template`, admin.token, { id: 'getting-started' });
    g.createRepository('site', { 'package.json': '{"name":"site"}\n' });
    const before = g.log('site');
    const info = await operate(
      spaceId,
      'export',
      { url: g.url('site'), ref: 'refs/heads/main', commitMessage: 'Docs from Quire' },
      editor.token,
    );
    expect(info.operation).toMatchObject({ state: 'success', direction: 'export' });
    const log = g.log('site');
    expect(log.length).toBe(before.length + 1);
    expect(log[0]).toMatchObject({ hash: info.operation.commit, subject: 'Docs from Quire', committer: 'Quire <quire@quire.test>' });
    // Read back with git's own clone.
    const work = mkdtempSync(join(tmpdir(), 'quire-git-clone-'));
    try {
      git(work, 'clone', '--quiet', join(g.root, 'site.git'), 'site');
      const files = git(join(work, 'site'), 'ls-files').trim().split('\n').sort();
      const expected = await exportRevisionFiles(t.db, spaceId, (await t.get(`/v1/spaces/${spaceId}`, admin.token)).body.revision);
      expect(files).toEqual([...expected.keys(), 'package.json'].sort());
      expect(readFileSync(join(work, 'site', 'SUMMARY.md'))).toEqual(Buffer.from(expected.get('SUMMARY.md') as Uint8Array));
      expect(git(join(work, 'site'), 'log', '-1', '--format=%an <%ae>').trim()).toBe(`edit <${editor.email}>`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('creates the branch when the ref does not exist yet, in the project folder', async () => {
    const spaceId = await newSpace();
    await t.post(`/v1/spaces/${spaceId}/content/template`, admin.token, { id: 'getting-started' });
    g.createRepository('fresh', { 'README.md': '# Code\n' });
    const info = await operate(spaceId, 'export', {
      url: g.url('fresh'),
      ref: 'docs-branch',
      commitMessage: 'First docs',
      repoProjectDirectory: 'docs',
    });
    expect(info.operation.state).toBe('success');
    expect(g.log('fresh', 'docs-branch').map((c) => c.subject)).toEqual(['First docs']);
    const work = g.checkout('fresh', 'docs-branch');
    try {
      expect(readdirSync(join(work, 'docs')).sort()).toContain('SUMMARY.md');
      expect(readdirSync(work).sort()).toEqual(['.git', 'docs']);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('an export after an import of what an export wrote changes no file and makes no commit', async () => {
    // A repository written by an export: the round trip is byte for byte.
    const source = await newSpace();
    await t.post(`/v1/spaces/${source}/content/template`, admin.token, { id: 'getting-started' });
    g.createBare('round');
    await operate(source, 'export', { url: g.url('round'), ref: 'main', commitMessage: 'Written by an export' });
    const spaceId = await newSpace();
    expect((await operate(spaceId, 'import', { url: g.url('round'), ref: 'main' })).operation.state).toBe('success');
    const before = g.log('round');
    const info = await operate(spaceId, 'export', { url: g.url('round'), ref: 'main', commitMessage: 'Nothing changed' });
    expect(info.operation.state).toBe('success');
    expect(info.operation.commit).toBeUndefined();
    expect(g.log('round')).toEqual(before);
  });

  it('an edit becomes a commit touching only its page', async () => {
    const spaceId = await newSpace();
    await operate(spaceId, 'import', { url: g.url('docs'), ref: 'main' });
    g.createBare('edited');
    await operate(spaceId, 'export', { url: g.url('edited'), ref: 'main', commitMessage: 'Everything' });
    const pages = (await t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body.pages;
    const quickstart = pages[1].pages[0];
    await editLive(t.db, { spaceId }, (doc) => updatePage(doc, quickstart.id, { title: 'Quick start' }));
    const pushes = g.pushedObjects.length;
    await operate(spaceId, 'export', { url: g.url('edited'), ref: 'main', commitMessage: 'Retitle the quickstart' });
    // Only what changed is sent: the commit, the root and getting-started trees, the two files.
    expect(g.pushedObjects.slice(pushes)).toEqual([5]);
    const bare = join(g.root, 'edited.git');
    expect(git(bare, 'log', '--format=%s', 'main').trim().split('\n')).toEqual(['Retitle the quickstart', 'Everything']);
    expect(git(bare, 'diff', '--name-only', 'main~1', 'main').trim().split('\n').sort()).toEqual([
      'SUMMARY.md',
      'getting-started/quickstart.md',
    ]);
  });

  it('a push refused because the branch moved is fetched and built again, keeping the other commit; never forced', async () => {
    const spaceId = await newSpace();
    await t.post(`/v1/spaces/${spaceId}/content/template`, admin.token, { id: 'getting-started' });
    g.createRepository('moving', { 'code.txt': 'v1\n' }, { message: 'Code' });
    // Someone pushes while the export runs: between its fetch and its push.
    let pushedMeanwhile = false;
    g.beforeRequest = (request) => {
      if (pushedMeanwhile || !request.startsWith('GET /moving.git/info/refs?service=git-receive-pack')) return;
      pushedMeanwhile = true;
      g.commit('moving', { 'code.txt': 'v2\n' }, { message: 'Code change' });
    };
    try {
      const info = await operate(spaceId, 'export', { url: g.url('moving'), ref: 'main', commitMessage: 'Docs' });
      expect(info.operation.state).toBe('success');
    } finally {
      g.beforeRequest = undefined;
    }
    expect(pushedMeanwhile).toBe(true);
    expect(g.log('moving').map((c) => c.subject)).toEqual(['Docs', 'Code change', 'Code']);
    const work = g.checkout('moving');
    try {
      expect(readFileSync(join(work, 'code.txt'), 'utf8')).toBe('v2\n');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
  it('force: true pushes over a branch that moved, as asked', async () => {
    const spaceId = await newSpace();
    await t.post(`/v1/spaces/${spaceId}/content/template`, admin.token, { id: 'getting-started' });
    g.createRepository('forced', { 'code.txt': 'v1\n' }, { message: 'Code' });
    let pushedMeanwhile = false;
    g.beforeRequest = (request) => {
      if (pushedMeanwhile || !request.startsWith('GET /forced.git/info/refs?service=git-receive-pack')) return;
      pushedMeanwhile = true;
      g.commit('forced', { 'code.txt': 'v2\n' }, { message: 'Code change' });
    };
    try {
      const info = await operate(spaceId, 'export', { url: g.url('forced'), ref: 'main', commitMessage: 'Docs', force: true });
      expect(info.operation.state).toBe('success');
    } finally {
      g.beforeRequest = undefined;
    }
    expect(g.log('forced').map((c) => c.subject)).toEqual(['Docs', 'Code']);
  });
});

describe('who may', () => {
  it('import and export need the edit role, info the read role; others do not see the space', async () => {
    const spaceId = await newSpace();
    const body = { url: g.url('docs'), ref: 'main' };
    expectError(await t.post(`/v1/spaces/${spaceId}/git/import`, reader.token, body), 403, 'This needs the edit role on the space.');
    expectError(
      await t.post(`/v1/spaces/${spaceId}/git/export`, reader.token, { ...body, commitMessage: 'x' }),
      403,
      'This needs the edit role on the space.',
    );
    expectError(await t.get(`/v1/spaces/${spaceId}/git/info`, reader.token), 404, 'No matching git sync found.');
    expect((await t.post(`/v1/spaces/${spaceId}/git/import`, editor.token, body)).status).toBe(204);
    expect((await t.get(`/v1/spaces/${spaceId}/git/info`, reader.token)).status).toBe(200);
    const stranger = await t.user('stranger');
    for (const res of [
      await t.post(`/v1/spaces/${spaceId}/git/import`, stranger.token, body),
      await t.get(`/v1/spaces/${spaceId}/git/info`, stranger.token),
      await t.get(`/v1/spaces/${UNKNOWN_ID}/git/info`, admin.token),
    ]) {
      expectError(res, 404, 'No matching space found.');
    }
    await runner.runOnce();
  });

  it('main of a locked space takes no import (409); a standalone one is accepted', async () => {
    const spaceId = await newSpace();
    expect((await t.patch(`/v1/spaces/${spaceId}`, admin.token, { editMode: 'locked' })).status).toBe(200);
    expectError(
      await t.post(`/v1/spaces/${spaceId}/git/import`, admin.token, { url: g.url('docs'), ref: 'main' }),
      409,
      'The space is locked: its content cannot be changed until it is live again. A standalone import opens a change request instead.',
    );
    const info = await operate(spaceId, 'import', { url: g.url('docs'), ref: 'main', standalone: true });
    expect(info.operation.state).toBe('success');
  });

  it('bad bodies are refused naming the field', async () => {
    const spaceId = await newSpace();
    const S = `/v1/spaces/${spaceId}/git`;
    expectError(
      await t.post(`${S}/import`, admin.token, { url: 'ftp://example.com/repo.git', ref: 'main' }),
      400,
      'Invalid body field "url": must be an http or https URL.',
    );
    expectError(await t.post(`${S}/import`, admin.token, { url: 'https://example.com/repo.git' }), 400, 'Missing body field "ref".');
    expectError(
      await t.post(`${S}/export`, admin.token, { url: 'https://example.com/repo.git', ref: 'main' }),
      400,
      'Missing body field "commitMessage".',
    );
    expectError(
      await t.post(`${S}/import`, admin.token, { url: 'https://example.com/repo.git', ref: 'main', repoProjectDirectory: '../etc' }),
      400,
      'Invalid body field "repoProjectDirectory": must be a folder inside the repository.',
    );
    expectError(
      await t.post(`${S}/import`, admin.token, { url: 'https://example.com/r.git', ref: 'main', branch: 'x' }),
      400,
      'Unknown body field: "branch".',
    );
    expectError(await t.get(`${S}/info`, admin.token), 404, 'No matching git sync found.');
  });

  it('the three operations are in the OpenAPI document', async () => {
    const doc = (await t.get('/v1/openapi.json')).body;
    for (const [path, method] of [
      ['/v1/spaces/{spaceId}/git/import', 'post'],
      ['/v1/spaces/{spaceId}/git/export', 'post'],
      ['/v1/spaces/{spaceId}/git/info', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.['x-quire-extension'], path).toBe(true);
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['ImportGitRepository', 'ExportToGitRepository', 'GitSyncState']),
    );
  });
});

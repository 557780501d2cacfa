import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPage, setPageMarkdown } from '@quire/shared/content/index';
import { sign } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pollGitConnections } from '../../core/git/poller';
import { GitRunner } from '../../core/git/runner';
import { expectError } from '../../testing/apiExpect';
import { GitServer, git } from '../../testing/gitServer';
import { TestServer, type TestUser } from '../../testing/harness';
import { editLive } from '../../testing/testEdits';

let t: TestServer;
let g: GitServer;
let runner: GitRunner;
let orgId: string;
let admin: TestUser;
let reader: TestUser;
// The spaces' object stores of the repositories (`DATA_DIR/git/stores`).
const dataDir = mkdtempSync(join(tmpdir(), 'quire-git-sync-'));

const TOKEN = 'sync-t0ken-secret';

// Each test runs several git round trips against git http-backend (a process per request).
vi.setConfig({ testTimeout: 240_000, hookTimeout: 120_000 });

beforeAll(async () => {
  g = await GitServer.start({ user: 'ada', password: TOKEN });
  t = await TestServer.start({ allowPrivateFetch: true, dataDir });
  runner = new GitRunner(t.deps);
  const o = await t.org(['read']);
  orgId = o.orgId;
  admin = o.admin;
  reader = o.members[0]!;
});
afterAll(async () => {
  await runner?.stop();
  await t?.close();
  await g?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const GUIDE = 'The quick fox jumps.\n\nSecond paragraph stays.\n\nThird paragraph is here.\n';
const REPO = {
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n',
  'README.md': '# Welcome\n\nHello.\n',
  'guide.md': `# Guide\n\n${GUIDE}`,
};

async function newSpace(title: string): Promise<string> {
  return (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title })).body.id;
}

/** A repository and a space connected to it, after its first sync. */
async function connected(name: string, firstSync: 'git' | 'quire' = 'git', files: Record<string, string> = REPO) {
  g.createRepository(name, files);
  const spaceId = await newSpace(name);
  const put = await t.put(`/v1/spaces/${spaceId}/git/sync`, admin.token, {
    url: g.url(name, false).replace('//', '//ada@'),
    ref: 'main',
    provider: 'github',
    credential: TOKEN,
    firstSync,
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  await runner.runOnce();
  const info = (await t.get(`/v1/spaces/${spaceId}/git/info`, admin.token)).body;
  expect(info.operation, JSON.stringify(info.operation)).toMatchObject({ state: 'success' });
  return { spaceId, secret: put.body.webhookSecret as string };
}

async function pageId(spaceId: string, title: string): Promise<string> {
  const pages = (await t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body.pages as { id: string; title: string }[];
  return pages.find((p) => p.title === title)!.id;
}

async function markdown(spaceId: string, id: string): Promise<string> {
  return (await t.get(`/v1/spaces/${spaceId}/content/page/${id}?format=markdown`, admin.token)).body.markdown;
}

/** The file on the branch, read with the git CLI. */
function onBranch(name: string, path: string): string {
  const work = g.checkout(name);
  try {
    return readFileSync(join(work, path), 'utf8');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function hook(spaceId: string, body: object, secret: string) {
  const raw = JSON.stringify(body);
  return t.request('POST', `/v1/git/hooks/${spaceId}`, {
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': await sign(secret, raw), 'x-github-event': 'push' },
    raw,
  });
}

describe('git/sync: the connection', () => {
  it('editors connect; the token is sealed and never shown again; bad input names the field', async () => {
    g.createRepository('conn', REPO);
    const spaceId = await newSpace('conn');
    expectError(await t.get(`/v1/spaces/${spaceId}/git/sync`, admin.token), 404, 'No matching git sync connection found.');
    const body = { url: g.url('conn', false), ref: 'main', provider: 'gitlab', credential: TOKEN, firstSync: 'git' };
    expectError(await t.put(`/v1/spaces/${spaceId}/git/sync`, reader.token, body), 403, 'This needs the edit role on the space.');
    const bad = await t.put(`/v1/spaces/${spaceId}/git/sync`, admin.token, { ...body, provider: 'bitbucket' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('provider');
    const missing = await t.put(`/v1/spaces/${spaceId}/git/sync`, admin.token, { ...body, firstSync: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('firstSync');

    const put = await t.put(`/v1/spaces/${spaceId}/git/sync`, admin.token, { ...body, url: g.url('conn') });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ url: g.url('conn', false), hasCredential: true, provider: 'gitlab', firstSync: 'git' });
    expect(put.body.webhookSecret).toMatch(/^[\w-]{20,}$/);
    expect(put.body.webhookUrl).toMatch(new RegExp(`/v1/git/hooks/${spaceId}$`));
    const got = await t.get(`/v1/spaces/${spaceId}/git/sync`, admin.token);
    expect(got.body.webhookSecret).toBeUndefined();
    expect(JSON.stringify(got.body)).not.toContain(TOKEN);
    const rows = await t.db.query<{ credentials: string; hook_secret: string }>('SELECT * FROM git_connections WHERE space_id = $1', [
      spaceId,
    ]);
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
    expect(JSON.stringify(rows)).not.toContain(put.body.webhookSecret);

    expect((await t.request('DELETE', `/v1/spaces/${spaceId}/git/sync`, { token: admin.token })).status).toBe(204);
    expect((await t.get(`/v1/spaces/${spaceId}/git/sync`, admin.token)).status).toBe(404);
  });

  it('firstSync git brings the branch in; firstSync quire writes the space over the branch', async () => {
    const { spaceId } = await connected('first-git', 'git');
    expect(await markdown(spaceId, await pageId(spaceId, 'Guide'))).toContain('Third paragraph is here.');
    const got = (await t.get(`/v1/spaces/${spaceId}/git/sync`, admin.token)).body;
    expect(got.commit).toBe(g.log('first-git')[0]!.hash);

    g.createRepository('first-quire', REPO);
    const quire = await newSpace('first-quire');
    await editLive(t.db, { spaceId: quire }, (doc) => createPage(doc, { title: 'From Quire', markdown: 'Written in Quire.\n' }));
    const put = await t.put(`/v1/spaces/${quire}/git/sync`, admin.token, {
      url: g.url('first-quire'),
      ref: 'main',
      provider: 'generic',
      firstSync: 'quire',
    });
    expect(put.status).toBe(200);
    await runner.runOnce();
    expect(g.log('first-quire')).toHaveLength(2);
    expect(onBranch('first-quire', 'SUMMARY.md')).toContain('From Quire');
    expect(onBranch('first-quire', 'SUMMARY.md')).not.toContain('Guide');
  });
});

describe('git/sync: both sides edit, nothing stops', () => {
  it('a push to paragraph 1 and a Quire edit of paragraph 3 both survive, and the branch ends equal to main', async () => {
    const { spaceId, secret } = await connected('both');
    const guide = await pageId(spaceId, 'Guide');
    g.commit(
      'both',
      { 'guide.md': `# Guide\n\n${GUIDE.replace('The quick fox jumps.', 'The quick fox jumps high.')}` },
      { message: 'Teammate' },
    );
    await editLive(t.db, { spaceId }, (doc) =>
      setPageMarkdown(doc, guide, GUIDE.replace('Third paragraph is here.', 'Third paragraph is here, edited in Quire.')),
    );
    expect((await hook(spaceId, { ref: 'refs/heads/main' }, secret)).status).toBe(202);
    await runner.runOnce();
    const md = await markdown(spaceId, guide);
    expect(md).toContain('The quick fox jumps high.');
    expect(md).toContain('Third paragraph is here, edited in Quire.');
    const file = onBranch('both', 'guide.md');
    expect(file).toContain('The quick fox jumps high.');
    expect(file).toContain('Third paragraph is here, edited in Quire.');
    const last = g.log('both')[0]!;
    expect(last.committer).toMatch(/^Quire </);
    expect(last.subject).toBe('Edits in Quire');
    // Nothing was forced: the teammate's commit is still in the branch's history.
    expect(g.log('both').map((c) => c.subject)).toContain('Teammate');
  });

  it("both sides editing one sentence keep both edits' characters", async () => {
    const { spaceId, secret } = await connected('sentence');
    const guide = await pageId(spaceId, 'Guide');
    g.commit('sentence', { 'guide.md': `# Guide\n\n${GUIDE.replace('quick fox', 'quick brown fox')}` });
    await editLive(t.db, { spaceId }, (doc) => setPageMarkdown(doc, guide, GUIDE.replace('fox jumps.', 'fox jumps over the dog.')));
    expect((await hook(spaceId, { ref: 'refs/heads/main' }, secret)).status).toBe(202);
    await runner.runOnce();
    const md = await markdown(spaceId, guide);
    expect(md).toContain('The quick brown fox jumps over the dog.');
    expect(onBranch('sentence', 'guide.md')).toContain('The quick brown fox jumps over the dog.');
  });

  it('a merged change request becomes one commit titled by it, its editors as Co-authored-by', async () => {
    const { spaceId } = await connected('merge');
    const guide = await pageId(spaceId, 'Guide');
    const cr = (await t.post(`/v1/spaces/${spaceId}/change-requests`, admin.token, { subject: 'Explain the fox' })).body;
    await editLive(t.db, { spaceId, changeRequestId: cr.id }, (doc) => setPageMarkdown(doc, guide, `${GUIDE}\nA fourth paragraph.\n`));
    expect((await t.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`, admin.token)).status).toBe(200);
    await runner.runOnce();
    const repo = g.checkout('merge');
    try {
      expect(git(repo, 'log', '-1', '--format=%s%n%b%n%cn').trim()).toMatch(/^Explain the fox\nCo-authored-by: .+ <.+@.+>\n+Quire$/);
      expect(readFileSync(join(repo, 'guide.md'), 'utf8')).toContain('A fourth paragraph.');
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe('git/sync: arrivals and failures', () => {
  it('webhooks: unknown space 404, bad signature 401 and nothing queued, a GitLab token verified', async () => {
    const { spaceId, secret } = await connected('hooks');
    expect((await hook('unknownspace0000000000', { ref: 'refs/heads/main' }, secret)).status).toBe(404);
    const queued = async () =>
      (await t.db.query(`SELECT 1 FROM git_operations WHERE space_id = $1 AND state = 'queued'`, [spaceId])).length;
    expect((await hook(spaceId, { ref: 'refs/heads/main' }, 'wrong-secret')).status).toBe(401);
    const unsigned = await t.request('POST', `/v1/git/hooks/${spaceId}`, { headers: { 'content-type': 'application/json' }, raw: '{}' });
    expect(unsigned.status).toBe(401);
    expect(await queued()).toBe(0);
    // A push to another branch is acknowledged and ignored.
    expect((await hook(spaceId, { ref: 'refs/heads/other' }, secret)).status).toBe(202);
    expect(await queued()).toBe(0);
    expect((await hook(spaceId, { ref: 'refs/heads/main' }, secret)).status).toBe(202);
    expect(await queued()).toBe(1);
    await runner.runOnce();

    const lab = await newSpace('gitlab');
    const put = await t.put(`/v1/spaces/${lab}/git/sync`, admin.token, {
      url: g.url('hooks'),
      ref: 'main',
      provider: 'gitlab',
      firstSync: 'git',
    });
    const gitlab = (token: string) =>
      t.request('POST', `/v1/git/hooks/${lab}`, { headers: { 'content-type': 'application/json', 'x-gitlab-token': token }, raw: '{}' });
    expect((await gitlab('not-it')).status).toBe(401);
    // A GitHub signature does not stand in for GitLab's token.
    expect((await hook(lab, {}, put.body.webhookSecret)).status).toBe(401);
    expect((await gitlab(put.body.webhookSecret)).status).toBe(202);
    expect((await t.request('DELETE', `/v1/spaces/${lab}/git/sync`, { token: admin.token })).status).toBe(204);
  });

  it('polling queues a sync when the branch moved, and none when it did not', async () => {
    const { spaceId } = await connected('poll');
    expect(await pollGitConnections(t.deps)).toBe(0);
    g.commit('poll', { 'README.md': '# Welcome\n\nHello from a poll.\n' });
    expect(await pollGitConnections(t.deps)).toBe(1);
    await runner.runOnce();
    expect(await markdown(spaceId, await pageId(spaceId, 'Welcome'))).toContain('Hello from a poll.');
  });

  it('a refused credential is a failed operation in git/info, the space unchanged, and a retry waits', async () => {
    g.createRepository('refused', REPO);
    const spaceId = await newSpace('refused');
    const put = await t.put(`/v1/spaces/${spaceId}/git/sync`, admin.token, {
      url: g.url('refused', false),
      ref: 'main',
      provider: 'generic',
      credential: 'not-the-token',
      firstSync: 'git',
    });
    expect(put.status).toBe(200);
    const revision = (await t.get(`/v1/spaces/${spaceId}`, admin.token)).body.revision;
    await runner.runOnce();
    const info = (await t.get(`/v1/spaces/${spaceId}/git/info`, admin.token)).body;
    expect(info.operation).toMatchObject({ state: 'failure', error: `authentication failed for ${g.url('refused', false)}` });
    expect(JSON.stringify(info)).not.toContain('not-the-token');
    expect((await t.get(`/v1/spaces/${spaceId}`, admin.token)).body.revision).toBe(revision);
    const retries = await t.db.query<{ not_before: Date }>(
      `SELECT not_before FROM git_operations WHERE space_id = $1 AND state = 'queued'`,
      [spaceId],
    );
    expect(retries).toHaveLength(1);
    expect(new Date(retries[0]!.not_before).getTime()).toBeGreaterThan(Date.now());
    expect(await runner.runOnce()).toBe(0);
  });
});

interface TreePage {
  id: string;
  title: string;
  pages: TreePage[];
}
const outline = (pages: TreePage[]): unknown[] => pages.map((p) => [p.title, ...(p.pages.length ? [outline(p.pages)] : [])]);
const ids = (pages: TreePage[]): Record<string, string> =>
  Object.fromEntries(pages.flatMap((p) => [[p.title, p.id], ...Object.entries(ids(p.pages))]));

describe('git/sync: the table of contents', () => {
  it('a page moved in SUMMARY.md is moved in the space, the same page with its id and body', async () => {
    const files = {
      ...REPO,
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n* [FAQ](faq.md)\n',
      'faq.md': '# FAQ\n\nAsk away.\n',
    };
    const { spaceId, secret } = await connected('moves', 'git', files);
    const content = async () => (await t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body.pages as TreePage[];
    const before = ids(await content());
    expect(outline(await content())).toEqual([['Welcome'], ['Guide'], ['FAQ']]);

    // Only the order changes: FAQ first.
    g.commit('moves', { 'SUMMARY.md': '# Table of contents\n\n* [FAQ](faq.md)\n* [Welcome](README.md)\n* [Guide](guide.md)\n' });
    expect((await hook(spaceId, { ref: 'refs/heads/main' }, secret)).status).toBe(202);
    await runner.runOnce();
    expect(outline(await content())).toEqual([['FAQ'], ['Welcome'], ['Guide']]);

    // Guide goes under Welcome.
    g.commit('moves', { 'SUMMARY.md': '# Table of contents\n\n* [FAQ](faq.md)\n* [Welcome](README.md)\n  * [Guide](guide.md)\n' });
    expect((await hook(spaceId, { ref: 'refs/heads/main' }, secret)).status).toBe(202);
    await runner.runOnce();
    const after = await content();
    expect(outline(after)).toEqual([['FAQ'], ['Welcome', [['Guide']]]]);
    // The same pages, moved: no page was removed and created again.
    expect(ids(after)).toEqual(before);
    expect(await markdown(spaceId, before.Guide!)).toContain('Third paragraph is here.');
    const info = (await t.get(`/v1/spaces/${spaceId}/git/info`, admin.token)).body;
    expect(info.operation, JSON.stringify(info.operation)).toMatchObject({ state: 'success' });
    // Both ends equal: the branch's summary still nests Guide under Welcome.
    expect(onBranch('moves', 'SUMMARY.md')).toMatch(/\* \[Welcome\]\([^)]+\)\n {2}\* \[Guide\]/);
  });
});

describe('git/sync: Quire edits become commits', () => {
  it('a push refused because the branch moved meanwhile fetches, merges and pushes again, never forced', async () => {
    const { spaceId } = await connected('moved-meanwhile');
    const guide = await pageId(spaceId, 'Guide');
    // A teammate pushes between the sync's fetch and its push.
    let teammate = false;
    g.beforeRequest = (request) => {
      if (teammate || !request.startsWith('GET /moved-meanwhile.git/info/refs?service=git-receive-pack')) return;
      teammate = true;
      g.commit(
        'moved-meanwhile',
        { 'guide.md': `# Guide\n\n${GUIDE.replace('The quick fox jumps.', 'The quick fox jumps high.')}` },
        { message: 'Teammate' },
      );
    };
    try {
      await editLive(t.db, { spaceId }, (doc) =>
        setPageMarkdown(doc, guide, GUIDE.replace('Third paragraph is here.', 'Third paragraph is here, edited in Quire.')),
      );
      await runner.runOnce();
      expect(teammate).toBe(true);
    } finally {
      g.beforeRequest = undefined;
    }
    const info = (await t.get(`/v1/spaces/${spaceId}/git/info`, admin.token)).body;
    expect(info.operation, JSON.stringify(info.operation)).toMatchObject({ state: 'success' });
    const log = g.log('moved-meanwhile');
    expect(log[0]).toMatchObject({ subject: 'Edits in Quire' });
    expect(log.map((c) => c.subject)).toContain('Teammate');
    const file = onBranch('moved-meanwhile', 'guide.md');
    expect(file).toContain('The quick fox jumps high.');
    expect(file).toContain('Third paragraph is here, edited in Quire.');
    // The teammate's edit came into Quire too, and the base is what was pushed.
    expect(await markdown(spaceId, guide)).toContain('The quick fox jumps high.');
    expect((await t.get(`/v1/spaces/${spaceId}/git/sync`, admin.token)).body.commit).toBe(log[0]!.hash);
  });
});

describe('git/sync: the space’s object store', () => {
  it('a push fetches nothing while the branch did not move; a lost store is fetched again; disconnecting removes it', async () => {
    const { spaceId } = await connected('store');
    const guide = await pageId(spaceId, 'Guide');
    const fetches = () => g.requests.filter((r) => r.startsWith('POST /store.git/git-upload-pack')).length;
    const stores = join(dataDir, 'git', 'stores', spaceId);
    expect(existsSync(stores)).toBe(true);
    const edit = (words: string) =>
      editLive(t.db, { spaceId }, (doc) => setPageMarkdown(doc, guide, GUIDE.replace('Second paragraph stays.', words)));

    let before = fetches();
    await edit('Second paragraph, first edit.');
    await runner.runOnce();
    expect(fetches() - before).toBe(0);
    expect(onBranch('store', 'guide.md')).toContain('Second paragraph, first edit.');

    // Another instance's disk, or one cleaned: the commit is fetched again.
    rmSync(stores, { recursive: true, force: true });
    before = fetches();
    await edit('Second paragraph, second edit.');
    await runner.runOnce();
    expect(fetches() - before).toBeGreaterThan(0);
    expect(onBranch('store', 'guide.md')).toContain('Second paragraph, second edit.');
    expect(g.log('store').map((c) => c.subject)).toEqual(['Edits in Quire', 'Edits in Quire', 'Docs']);

    expect((await t.request('DELETE', `/v1/spaces/${spaceId}/git/sync`, { token: admin.token })).status).toBe(204);
    expect(existsSync(stores)).toBe(false);
  });
});

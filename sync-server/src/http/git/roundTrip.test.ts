import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPage, getPageDocument, movePage, readPageGitBaseline } from '@quire/shared/content/index';
import { PageKey, findPageMap } from '@quire/shared/content/layout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { exportRevisionFiles } from '../../core/content/export';
import { GitRunner } from '../../core/git/runner';
import { handWrittenRepository } from '../../testing/docsRepository';
import { gitbookFixture } from '../../testing/gitbookFixture';
import { GitServer, git } from '../../testing/gitServer';
import { TestServer, type TestUser } from '../../testing/harness';
import { editLive } from '../../testing/testEdits';

let t: TestServer;
let g: GitServer;
let runner: GitRunner;
let orgId: string;
let admin: TestUser;
let work: string;

const FIXTURE = gitbookFixture();

beforeAll(async () => {
  g = await GitServer.start({ user: 'ada', password: 'tok3n' });
  t = await TestServer.start({ allowPrivateFetch: true });
  runner = new GitRunner(t.deps);
  ({ orgId, admin } = await t.org([]));
  work = mkdtempSync(join(tmpdir(), 'quire-git-roundtrip-'));
});
afterAll(async () => {
  await runner?.stop();
  await t?.close();
  await g?.close();
  rmSync(work, { recursive: true, force: true });
});

async function operate(spaceId: string, direction: 'import' | 'export', body: Record<string, unknown>) {
  const asked = await t.post(`/v1/spaces/${spaceId}/git/${direction}`, admin.token, body);
  expect(asked.status, JSON.stringify(asked.body)).toBe(204);
  await runner.runOnce();
  const info = (await t.get(`/v1/spaces/${spaceId}/git/info`, admin.token)).body;
  expect(info.operation, JSON.stringify(info.operation)).toMatchObject({ state: 'success', direction });
  return info.operation as { commit?: string };
}

/** A repository made from the fixture, a space imported from it, and the commit it was imported at. */
async function imported(name: string, beforeImport?: (spaceId: string) => Promise<void>): Promise<{ spaceId: string; original: string }> {
  g.createRepository(name, FIXTURE, { message: 'Docs as GitBook wrote them' });
  const spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: name })).body.id as string;
  await beforeImport?.(spaceId);
  const original = g.log(name)[0]!.hash;
  expect((await operate(spaceId, 'import', { url: g.url(name), ref: 'main' })).commit).toBe(original);
  return { spaceId, original };
}

/** A fresh clone of the branch with the git CLI. */
function clone(name: string): string {
  const dir = mkdtempSync(join(work, `${name}-`));
  git(dir, 'clone', '--quiet', join(g.root, `${name}.git`), 'repo');
  return join(dir, 'repo');
}

/** Ids of the pages by title, through the REST API. */
async function pagesByTitle(spaceId: string): Promise<Map<string, string>> {
  const byTitle = new Map<string, string>();
  const walk = (pages: { id: string; title: string; pages: unknown[] }[]) => {
    for (const p of pages) {
      byTitle.set(p.title, p.id);
      walk(p.pages as never);
    }
  };
  walk((await t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body.pages);
  return byTitle;
}

/** Types a few words at the end of a page's first paragraph, as an editor bound to the branch would. */
function typeInFirstParagraph(doc: Y.Doc, pageId: string, words: string) {
  const body = findPageMap(doc, pageId)?.get(PageKey.body) as Y.XmlFragment;
  const paragraph = body.toArray().find((n) => n instanceof Y.XmlElement && n.nodeName === 'paragraph') as Y.XmlElement;
  const text = paragraph.toArray().findLast((n) => n instanceof Y.XmlText) as Y.XmlText;
  text.insert(text.length, words);
}

describe('git round trip of a repository GitBook wrote', () => {
  it('import then export with no edit changes no file: no commit, and git diff against the imported commit is empty', async () => {
    const { spaceId, original } = await imported('untouched');
    const pages = Object.keys(FIXTURE).filter((p) => p.endsWith('.md') && p !== 'docs/SUMMARY.md');
    expect(pages.length).toBeGreaterThanOrEqual(30);
    // What the export writes, file for file, is the imported folder: every page, the summary, every asset.
    const revision = (await t.get(`/v1/spaces/${spaceId}`, admin.token)).body.revision as string;
    const files = await exportRevisionFiles(t.db, spaceId, revision);
    const inFolder = Object.keys(FIXTURE)
      .filter((p) => p.startsWith('docs/'))
      .map((p) => p.slice('docs/'.length))
      .sort();
    expect([...files.keys()].sort()).toEqual(inFolder);
    const differing = [...files].filter(([path, bytes]) => !Buffer.from(bytes).equals(Buffer.from(FIXTURE[`docs/${path}`] ?? [])));
    expect(differing.map(([path]) => path)).toEqual([]);
    const exported = await operate(spaceId, 'export', { url: g.url('untouched'), ref: 'main', commitMessage: 'Nothing' });
    expect(exported.commit).toBeUndefined();
    expect(g.log('untouched').map((c) => c.hash)).toEqual([original]);

    const repo = clone('untouched');
    expect(git(repo, 'diff', '--stat', original, 'HEAD')).toBe('');
  });

  it('the hand-written repository of odd cases comes back unchanged too', async () => {
    g.createRepository('odd', handWrittenRepository());
    const spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Odd' })).body.id as string;
    await operate(spaceId, 'import', { url: g.url('odd'), ref: 'main' });
    const before = g.log('odd');
    expect((await operate(spaceId, 'export', { url: g.url('odd'), ref: 'main', commitMessage: 'Nothing' })).commit).toBeUndefined();
    expect(g.log('odd')).toEqual(before);
  });

  it('an edited page is the only file the next commit changes, written as git sync writes it', async () => {
    const { spaceId, original } = await imported('edited');
    const ids = await pagesByTitle(spaceId);
    await editLive(t.db, { spaceId }, (doc) => typeInFirstParagraph(doc, ids.get('Monitoring')!, ' Alerts go to the on-call person.'));
    const exported = await operate(spaceId, 'export', { url: g.url('edited'), ref: 'main', commitMessage: 'Edit monitoring' });
    expect(exported.commit).toBeDefined();
    const repo = clone('edited');
    expect(git(repo, 'diff', '--name-status', original, 'HEAD').trim()).toBe('M\tdocs/guides/monitoring.md');
    const diff = git(repo, 'diff', '--unified=0', original, 'HEAD');
    expect(diff).toContain('+This page explains monitoring. See also');
    expect(diff).toContain('Alerts go to the on-call person.');
    // the rest of the edited page is written as it was: one line changed
    expect(git(repo, 'diff', '--numstat', original, 'HEAD').trim()).toBe('1\t1\tdocs/guides/monitoring.md');
  });

  it('a moved page is a rename to its new folder, a new page goes under its parent, SUMMARY.md follows', async () => {
    const { spaceId, original } = await imported('moved');
    const ids = await pagesByTitle(spaceId);
    await editLive(t.db, { spaceId }, (doc) => {
      movePage(doc, ids.get('Faq')!, { parent: ids.get('CLI reference')! });
      createPage(doc, { title: 'Rolling back', parent: ids.get('Deploying')!, markdown: 'Run `acme rollback`.\n' });
    });
    const exported = await operate(spaceId, 'export', { url: g.url('moved'), ref: 'main', commitMessage: 'Move the FAQ' });
    expect(exported.commit).toBeDefined();
    const repo = clone('moved');
    const changed = git(repo, 'diff', '--name-status', '-M', original, 'HEAD').trim().split('\n');
    expect(changed).toContain('M\tdocs/SUMMARY.md');
    expect(changed.find((l) => l.includes('docs/troubleshooting/faq.md'))).toMatch(
      /^R\d+\tdocs\/troubleshooting\/faq\.md\tdocs\/reference\/cli\/faq\.md$/,
    );
    expect(changed).toContain('A\tdocs/guides/deploying/rolling-back.md');
    expect(git(repo, 'ls-files', 'docs/troubleshooting')).not.toContain('faq.md');
    const summary = readFileSync(join(repo, 'docs/SUMMARY.md'), 'utf8');
    expect(summary).toContain('(reference/cli/faq.md)');
    expect(summary).toContain('(guides/deploying/rolling-back.md)');
    expect(readFileSync(join(repo, 'docs/guides/deploying/rolling-back.md'), 'utf8')).toBe('# Rolling back\n\nRun `acme rollback`.\n');
    // pages linking to the FAQ now link to its new path; nothing else changed
    for (const line of changed) expect(line).toMatch(/^(M|A|R\d+)\t/);
    expect(changed.length).toBeLessThan(40);
  });

  it("keeps an image in an expandable summary, a link with a fragment into another folder and an empty-caption figure; .gitbook.yaml redirects become the site's", async () => {
    let site = '';
    const { spaceId, original } = await imported('cases', async (id) => {
      site = `/v1/orgs/${orgId}/sites/${(await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Cases', spaces: [id] })).body.id}`;
    });
    const ids = await pagesByTitle(spaceId);
    // .gitbook.yaml's redirects are the site's now, each to the page its file became
    const siteSpaceId = (await t.get(`${site}/site-spaces`, admin.token)).body.items[0].id;
    const redirects = (await t.get(`${site}/redirects`, admin.token)).body.items.map((r: { source: string; destination: unknown }) => [
      r.source,
      r.destination,
    ]);
    expect(redirects.sort()).toEqual([
      ['/api/v1', { kind: 'site-page', siteSpaceId, pageId: ids.get('API reference') }],
      ['/setup/install', { kind: 'site-page', siteSpaceId, pageId: ids.get('Installation') }],
    ]);
    const linking = ids.get('Scaling')!;
    const page = (await t.get(`/v1/spaces/${spaceId}/content/page/${linking}?format=document`, admin.token)).body;
    const json = JSON.stringify(page.document);
    // `../reference/api/authentication.md#overview` style links are page references with their anchor
    expect(json).toMatch(/"ref":\{"kind":"page","page":"[A-Za-z0-9_-]+","anchor":"overview"\}/);

    const withDetails = ids.get('Backups')!;
    await editLive(t.db, { spaceId }, (doc) => {
      const body = getPageDocument(doc, withDetails);
      const details = (body.content ?? []).find((n) => n.type === 'details');
      expect(details?.content?.[0]?.attrs?.html).toMatch(/^<picture><source srcset="file:[A-Za-z0-9_-]+"/);
      expect(readPageGitBaseline(doc, withDetails)?.rendered).toMatch(/^[0-9a-f]{64}$/);
      typeInFirstParagraph(doc, withDetails, ' Keep three.');
      typeInFirstParagraph(doc, ids.get('Deploying')!, ' Takes a minute.');
      // its front matter has `icon` before `description`, which the page keeps
      typeInFirstParagraph(doc, ids.get('Migrating')!, ' Plan an hour.');
    });
    await operate(spaceId, 'export', { url: g.url('cases'), ref: 'main', commitMessage: 'Edit two pages' });
    const repo = clone('cases');
    expect(git(repo, 'diff', '--name-only', original, 'HEAD').trim().split('\n').sort()).toEqual([
      'docs/guides/backups.md',
      'docs/guides/deploying.md',
      'docs/guides/migrating.md',
    ]);
    // each edited page is written as it was but for the line typed in
    expect(git(repo, 'diff', '--numstat', original, 'HEAD').trim().split('\n')).toEqual([
      '1\t1\tdocs/guides/backups.md',
      '1\t1\tdocs/guides/deploying.md',
      '1\t1\tdocs/guides/migrating.md',
    ]);
    const backups = readFileSync(join(repo, 'docs/guides/backups.md'), 'utf8');
    expect(backups).toContain(
      '<summary><picture><source srcset="../.gitbook/assets/logo-dark.png" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/logo.png" alt=""></picture> What the logo means</summary>',
    );
    const deploying = readFileSync(join(repo, 'docs/guides/deploying.md'), 'utf8');
    expect(deploying).toContain(
      '<figure><img src="../.gitbook/assets/Screenshot 2024-05-02 at 10.14.22.png" alt="Settings"><figcaption></figcaption></figure>',
    );
  });
});

import { setPageMarkdown } from '@quire/shared/content/body';
import { createPage, getPage } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { History } from '../../desktop/src/local/node/history';
import { initials } from '../../desktop/src/renderer/components/historyGroups';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Machine, ensureRendererBuilt, launchChromium, openWindow, screenshot, startMachine } from './helpers/browser';
import { type QuireTestServer, eventually, startQuireServer } from './helpers/server';

/**
 * A page's history as a team reads it: two writers on two machines edit in turn, with
 * pauses; the history groups their versions into sessions by writer, names each writer,
 * says what each session changed, labels a restore as one, and compares in a wide view.
 * The server cuts revisions in real time; their times are then set as the scenario says
 * (rather than sleeping through the pauses).
 */

let s: QuireTestServer;
let a: Machine;
let b: Machine;
let browser: Browser;
let spaceId: string;
let deploy: string;
let intro: string;
let nameA: string;
let nameB: string;
const revisions: string[] = [];
const errors: string[] = [];
/** Where the scenario starts: an hour ago, so that every pause fits before now. */
const T0 = Date.now() - 60 * 60_000;
const MIN = 60_000;

async function newestRevision(): Promise<string | undefined> {
  const res = await s.live.t.get(`/v1/spaces/${spaceId}/content/page/${deploy}/revisions`, s.token);
  return res.status === 200 ? (res.body.items[0]?.revision as string | undefined) : undefined;
}

/** Edits on `machine`, waits for the revision the server cuts of them, and dates it `at`. */
async function editAt(machine: Machine, at: number, edit: (doc: import('yjs').Doc) => void): Promise<string> {
  const before = await newestRevision();
  await machine.node.branches.with({ spaceId }, async (branch) => {
    branch.doc.transact(() => edit(branch.doc));
    await branch.saved();
  });
  await machine.node.branches.pushWaiting();
  let found: string | undefined;
  await eventually(
    async () => {
      found = await newestRevision();
      return !!found && found !== before;
    },
    'a revision of the edit',
    30_000,
  );
  await s.live.db.query('UPDATE revisions SET created_at = $1 WHERE id = $2', [new Date(at).toISOString(), found]);
  revisions.push(found as string);
  return found as string;
}

beforeAll(async () => {
  await ensureRendererBuilt();
  s = await startQuireServer();
  [a, b] = await Promise.all([startMachine(), startMachine()]);
  await a.node.session.connect(s.url, s.token);
  await b.node.session.connect(s.url, s.otherToken);
  nameA = (await s.live.t.get('/v1/user', s.token)).body.displayName as string;
  nameB = (await s.live.t.get('/v1/user', s.otherToken)).body.displayName as string;
  expect(nameA).not.toBe(nameB);
  const created = await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Handbook' });
  expect(created.status).toBe(201);
  spaceId = created.body.id as string;
  await Promise.all([a.node.catalog.refresh(), b.node.catalog.refresh()]);
  // Writer A's first session: three versions two minutes apart, touching three pages.
  await editAt(a, T0, (doc) => {
    deploy = createPage(doc, { title: 'Deploy', markdown: 'Run the deploy script.\n' });
    intro = createPage(doc, { title: 'Intro', markdown: 'Welcome.\n' });
  });
  await editAt(a, T0 + 2 * MIN, (doc) => setPageMarkdown(doc, deploy, 'Run the deploy script with the dry-run flag.\n'));
  await editAt(a, T0 + 4 * MIN, (doc) => {
    setPageMarkdown(doc, deploy, 'Run the deploy script with the dry-run flag first.\n');
    setPageMarkdown(doc, intro, 'Welcome to the team.\n');
    createPage(doc, { title: 'Rollback', markdown: 'Revert the release.\n' });
  });
  // B's machine holds the space live, so that it edits the pages A made.
  const held = await b.node.branches.acquire({ spaceId });
  await eventually(() => !!getPage(held.doc, deploy) && !!getPage(held.doc, intro), 'A’s pages on B’s machine', 30_000);
  // Writer B right after (another writer: a new entry), then again after a long pause.
  await editAt(b, T0 + 5 * MIN, (doc) =>
    setPageMarkdown(doc, deploy, 'Run the deploy script with the dry-run flag first.\n\nAsk in the channel.\n'),
  );
  await editAt(b, T0 + 16 * MIN, (doc) => setPageMarkdown(doc, deploy, 'Run the deploy script.\n\nAsk in the channel before.\n'));
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await a?.close();
  await b?.close();
  await s?.close();
});

async function historyOf(page: Page) {
  await page.locator('.space-row', { hasText: 'Handbook' }).click();
  await page.locator('.tree-row', { hasText: 'Deploy' }).first().click();
  await page.locator('.ProseMirror', { hasText: 'Ask in the channel' }).waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Page history' }).click();
  const panel = page.getByRole('complementary', { name: 'Page history' });
  await panel.locator('.history-group').first().waitFor({ timeout: 20_000 });
  return panel;
}

const entries = (panel: ReturnType<Page['getByRole']>) =>
  panel.locator('.history-group').evaluateAll((els) =>
    els.map((e) => ({
      author: e.querySelector('.history-author')?.textContent ?? '',
      avatar: e.querySelector('.avatar')?.textContent ?? '',
      what: e.querySelector('.history-what')?.textContent ?? '',
      pages: e.querySelector('.history-pages')?.textContent ?? '',
      versions: e.querySelectorAll('.history-version').length || 1,
    })),
  );

describe('a page’s history as a team reads it', { timeout: 120_000 }, () => {
  it('groups versions into sessions by writer and pause, with names, avatars and what each changed', async () => {
    const w = await openWindow(browser, a);
    w.page.on('pageerror', (e) => errors.push(e.message));
    await w.page.setViewportSize({ width: 1280, height: 800 });
    const panel = await historyOf(w.page);
    await expect.poll(() => panel.locator('.history-group').count(), { timeout: 20_000 }).toBe(3);
    const listed = await entries(panel);
    // Newest first: B after the long pause, B right after A, then A's three versions as one session.
    expect(listed.map((e) => [e.author, e.versions])).toEqual([
      [nameB, 1],
      [nameB, 1],
      [nameA, 3],
    ]);
    expect(listed[2]!.avatar).toBe(initials(nameA));
    expect(listed[0]!.avatar).toBe(initials(nameB));
    expect(listed[0]!.what).toBe('1 page edited');
    expect(listed[2]!.what).toBe('3 pages added');
    expect(listed[2]!.pages).toMatch(/Deploy/);
    expect(listed[2]!.pages).toMatch(/Intro/);
    expect(listed[2]!.pages).toMatch(/Rollback/);
    await screenshot(w.page, 'history-team-01-sessions');
    await w.page.close();
  });

  it('labels a restore as the restore of that version by that writer, and compares in a wide view that Escape closes', async () => {
    const w = await openWindow(browser, a);
    w.page.on('pageerror', (e) => errors.push(e.message));
    await w.page.setViewportSize({ width: 1280, height: 800 });
    const panel = await historyOf(w.page);
    const aSession = panel.locator('.history-group').nth(2);
    await aSession.locator('summary').click();
    // The second version of A's session: compare with it, in a view at least half the window wide.
    await aSession.locator(`[data-version="${revisions[1]}"]`).click();
    const compare = w.page.getByRole('region', { name: 'Changes since this version' });
    await compare.locator('.block-diff').waitFor({ timeout: 20_000 });
    const box = await compare.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(1280 / 2);
    expect(box!.height).toBeGreaterThan(600);
    await compare.getByRole('button', { name: 'Restore this version' }).click();
    await w.page.locator('.ProseMirror', { hasText: 'dry-run flag.' }).waitFor();
    let restore: string | undefined;
    await eventually(
      async () => {
        restore = await newestRevision();
        return !!restore && !revisions.includes(restore);
      },
      'a revision of the restore',
      30_000,
    );
    // Escape closes the comparison, then the panel; reopened, the restore is its own entry.
    await w.page.keyboard.press('Escape');
    await expect.poll(() => compare.count()).toBe(0);
    await w.page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    await w.page.getByRole('button', { name: 'Page history' }).click();
    const first = panel.locator('.history-group').first();
    await expect.poll(() => first.locator('.history-item').getAttribute('data-revision'), { timeout: 20_000 }).toBe(restore);
    expect(await first.locator('.history-author').textContent()).toBe(nameA);
    const when = new Date(T0 + 2 * MIN).toLocaleString('en-US');
    expect(await first.locator('.history-what').textContent()).toBe(`Restored the version of ${when} · by ${nameA}`);
    await screenshot(w.page, 'history-team-restored');
    // B's first session, compared with the page as it is now.
    await panel.locator('.history-group').nth(2).locator('.history-item').click();
    await compare.locator('.block-diff').waitFor({ timeout: 20_000 });
    await screenshot(w.page, 'history-team-compare');
    await w.page.close();
  });

  it('lists this writer’s edits not on the server yet (offline) as theirs, above what the server recorded', async () => {
    await a.node.session.setWorkOffline(true);
    try {
      await a.node.branches.with({ spaceId }, async (branch) => {
        branch.doc.transact(() => {
          setPageMarkdown(branch.doc, deploy, 'Run the deploy script on the train.\n');
          setPageMarkdown(branch.doc, intro, 'Welcome aboard.\n');
        });
        await branch.saved();
      });
      const w = await openWindow(browser, a);
      w.page.on('pageerror', (e) => errors.push(e.message));
      await w.page.locator('.space-row', { hasText: 'Handbook' }).click();
      await w.page.locator('.tree-row', { hasText: 'Deploy' }).first().click();
      await w.page.locator('.ProseMirror', { hasText: 'on the train' }).waitFor({ timeout: 20_000 });
      await w.page.getByRole('button', { name: 'Page history' }).click();
      const panel = w.page.getByRole('complementary', { name: 'Page history' });
      const unsent = panel.locator('.history-group.is-unsent');
      await unsent.waitFor({ timeout: 20_000 });
      expect(await unsent.locator('.history-author').textContent()).toBe(nameA);
      expect(await unsent.locator('.history-what').textContent()).toBe('2 pages edited · not on the server yet');
      expect(await unsent.locator('.history-pages').textContent()).toBe('Deploy, Intro');
      // What the server recorded is still listed below, from what this machine kept.
      await expect.poll(() => panel.locator('.history-group:not(.is-unsent)').count(), { timeout: 20_000 }).toBe(4);
      await screenshot(w.page, 'history-team-02-offline');
      // Offline after a restart too (a history part as a new start makes it), the writers keep their names.
      const restarted = new History((a.node as unknown as { ctx: ConstructorParameters<typeof History>[0] }).ctx);
      const kept = await restarted.list({ spaceId }, deploy);
      expect(new Set(kept.revisions.map((r) => r.by))).toEqual(new Set([nameA, nameB]));
      await w.page.close();
    } finally {
      await a.node.session.setWorkOffline(false);
    }
  });

  it('no page error in any window', () => {
    expect(errors).toEqual([]);
  });
});

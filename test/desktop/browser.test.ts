import { getPageMarkdown, setPageMarkdown } from '@quire/shared/content/body';
import { createPage, listPages } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Machine, ensureRendererBuilt, launchChromium, openWindow, screenshot, select, startMachine } from './helpers/browser';
import { type QuireTestServer, eventually, startQuireServer } from './helpers/server';

/**
 * The browser mode driven in Debian's chromium against a real server: two machines (each a
 * headless LocalNode with its own data, behind its own bridge), each with a window.
 */

const GUIDE = `Quire keeps your documentation **on your machine** and syncs it with your team when the server is reachable.

## Install

\`\`\`bash
npm install && npm start
\`\`\`

{% hint style="info" %}
You can work fully offline: every edit is saved locally first.
{% endhint %}

- Fast search within a space
- Change requests with a diff of every page
- Comments that work offline

| Feature | Offline | Online |
| --- | --- | --- |
| Editing | Saved locally | Synced live |
| Comments | Queued | Posted |

- [x] Write the guide
- [ ] Review it with the team
`;

let s: QuireTestServer;
let a: Machine;
let b: Machine;
let browser: Browser;
let spaceId: string;
let firstPage: string;
const errors: string[] = [];

async function window(machine: Machine): Promise<Page> {
  const w = await openWindow(browser, machine);
  w.page.on('pageerror', (e) => errors.push(e.message));
  return w.page;
}

/** Opens the shared space and its first page, by its title as a writer would. */
async function openSpace(page: Page) {
  await page.locator('.space-row', { hasText: 'Handbook' }).click();
  await page.locator('.ProseMirror').waitFor();
}

/** A paste as the browser delivers it, with the clipboard's flavours (text/plain, text/html). */
async function paste(page: Page, data: Record<string, string>) {
  await page.locator('.ProseMirror').evaluate((el, flavours) => {
    const clipboardData = new DataTransfer();
    for (const [type, value] of Object.entries(flavours)) clipboardData.setData(type, value);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
  }, data);
}

const DIAGRAM = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="140" viewBox="0 0 480 140">
<rect width="480" height="140" rx="12" fill="#eef2ff"/>
<rect x="30" y="45" width="120" height="50" rx="8" fill="#4f46e5"/><text x="90" y="75" font-family="sans-serif" font-size="15" fill="#fff" text-anchor="middle">Laptop</text>
<rect x="330" y="45" width="120" height="50" rx="8" fill="#0f766e"/><text x="390" y="75" font-family="sans-serif" font-size="15" fill="#fff" text-anchor="middle">Server</text>
<path d="M160 70h160" stroke="#6366f1" stroke-width="3" stroke-dasharray="8 6"/><text x="240" y="60" font-family="sans-serif" font-size="13" fill="#3730a3" text-anchor="middle">sync when online</text>
</svg>`;

/** Waits until the machine's outbox has replayed everything; on timeout, says what is stuck and why. */
async function allSent(machine: Machine, ms = 30_000) {
  await eventually(async () => (await machine.node.session.status()).pendingMutations === 0, 'the outbox to drain', ms).catch(
    async (err) => {
      const stuck = (await machine.node.queue.entries()).map((e) => `${e.kind} (${e.state}, ${e.attempts} attempts): ${e.error ?? ''}`);
      throw new Error(
        `${(err as Error).message}; waiting: ${stuck.join('; ')}; status: ${JSON.stringify(await machine.node.session.status())}`,
      );
    },
  );
}

async function typeAtEnd(page: Page, text: string) {
  await page.locator('.ProseMirror').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text, { delay: 15 });
}

beforeAll(async () => {
  await ensureRendererBuilt();
  s = await startQuireServer();
  [a, b] = await Promise.all([startMachine(), startMachine()]);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await a?.close();
  await b?.close();
  await s?.close();
});

// A step may wait up to 30 s on a loaded machine; a test gets room for more than one such wait.
describe('desktop app in the browser mode', { timeout: 90_000 }, () => {
  it('connects to a server from the connect screen', async () => {
    const page = await window(a);
    await page.locator('input[name=token]').waitFor();
    await page.fill('input[name=server]', s.url);
    await screenshot(page, '01-connect');
    await page.fill('input[name=token]', 'not-a-valid-token');
    await page.click('button[type=submit]');
    await expect.poll(() => page.locator('[role=alert]').textContent()).toContain('refused this token');
    await page.fill('input[name=token]', s.token);
    await page.click('button[type=submit]');
    await page.getByRole('heading', { name: 'Pick a space' }).waitFor();
    await screenshot(page, '02-workspace-empty');
    await page.close();
    await b.node.session.connect(s.url, s.otherToken);

    // The content both windows will work on, written through machine A's LocalNode.
    const space = await a.node.catalog.createSpace({ title: 'Handbook', emoji: '📘', organizationId: s.orgId });
    spaceId = space.id;
    await a.node.branches.with({ spaceId }, async (branch) => {
      firstPage = listPages(branch.doc)[0]!.id;
      setPageMarkdown(branch.doc, firstPage, GUIDE);
      const guides = createPage(branch.doc, { title: 'Guides', markdown: 'Everything about writing with Quire.' });
      createPage(branch.doc, {
        title: 'Writing pages',
        parent: guides,
        markdown: 'Type markdown and it becomes blocks: `# ` for a heading, `- ` for a list.',
      });
      createPage(branch.doc, {
        title: 'Reviewing changes',
        parent: guides,
        markdown: 'Open a change request, edit, review the diff, merge.',
      });
      createPage(branch.doc, { title: 'FAQ', markdown: '## Does Quire work offline?\n\nYes: edits are saved on your machine first.' });
      await branch.saved();
    });
    await eventually(async () => (await a.node.session.status()).pending === 0, 'the space on the server', 30_000);
    const remoteId = (await a.node.db.query<{ remote_id: string }>('SELECT remote_id FROM spaces WHERE id = $1', [spaceId]))[0]!.remote_id;
    expect(remoteId).toBeTruthy();
    spaceId = remoteId;
    await b.node.catalog.refresh();
    await a.node.catalog.refresh();
  });

  it('two windows on the same page see each other typing, and each other’s cursors', async () => {
    const pa = await window(a);
    const pb = await window(b);
    await openSpace(pa);
    await openSpace(pb);
    await pa.locator('.ProseMirror h2', { hasText: 'Install' }).waitFor();
    await screenshot(pa, '03-editor');

    await typeAtEnd(pa, ' Typed in window A.');
    await expect.poll(() => pb.locator('.ProseMirror').textContent(), { timeout: 10_000 }).toContain('Typed in window A.');
    await typeAtEnd(pb, ' And B answers.');
    await expect.poll(() => pa.locator('.ProseMirror').textContent(), { timeout: 10_000 }).toContain('And B answers.');
    // Each sees the other's caret with a name label.
    await expect.poll(() => pb.locator('.collaboration-cursor__label').allTextContents(), { timeout: 10_000 }).toContain('admin');
    await expect.poll(() => pa.locator('.collaboration-cursor__label').allTextContents(), { timeout: 10_000 }).toContain('edit');
    await expect.poll(() => pa.getByTestId('save-state').textContent()).toBe('Saved');
    await screenshot(pb, '04-collaboration');
    await pa.close();
    await pb.close();
  });

  it('going offline, editing and coming back syncs, and the status tells the truth', async () => {
    const pa = await window(a);
    const pb = await window(b);
    await openSpace(pa);
    await openSpace(pb);
    await expect.poll(() => pa.getByTestId('sync-status').textContent(), { timeout: 10_000 }).toBe('Online');
    await pa.getByLabel('Work offline').check({ force: true });
    await expect.poll(() => pa.getByTestId('sync-status').textContent()).toBe('Working offline');
    await typeAtEnd(pa, ' Written on a plane.');
    await expect.poll(() => pa.getByTestId('sync-detail').textContent(), { timeout: 10_000 }).toBe('1 page waiting to be sent');
    await expect.poll(() => pa.getByTestId('save-state').textContent()).toBe('Saved');
    // Comments work offline too: kept here, marked as waiting, sent on reconnect.
    await pa.getByRole('button', { name: 'Comments' }).click();
    await pa.getByPlaceholder('Add a comment on this page…').fill('Written offline, sent later.');
    await pa.getByRole('button', { name: 'Comment', exact: true }).click();
    const offlineThread = pa.locator('.thread', { hasText: 'Written offline, sent later.' });
    await offlineThread.locator('.badge', { hasText: 'Waiting to send' }).waitFor();
    await screenshot(pa, '05-offline');
    await pb.waitForTimeout(1000);
    expect(await pb.locator('.ProseMirror').textContent()).not.toContain('Written on a plane.');

    await pa.getByLabel('Work offline').uncheck({ force: true });
    await expect.poll(() => pb.locator('.ProseMirror').textContent(), { timeout: 15_000 }).toContain('Written on a plane.');
    await expect.poll(() => pa.getByTestId('sync-status').textContent(), { timeout: 15_000 }).toBe('Online');
    await expect.poll(() => pa.getByTestId('sync-detail').textContent(), { timeout: 15_000 }).toBe('All changes synced');
    await expect.poll(() => offlineThread.locator('.badge').count(), { timeout: 15_000 }).toBe(0);
    const onServer = await s.live.t.get(`/v1/spaces/${spaceId}/comments`, s.token);
    expect(onServer.body.items.map((c: { body: { markdown: string } }) => c.body.markdown)).toContain('Written offline, sent later.');
    // Resolved here so the comments test starts from an empty panel.
    await offlineThread.getByRole('button', { name: 'Resolve' }).click();
    await allSent(a);
    await pa.close();
    await pb.close();
  });

  it('comments: post, reply, react and resolve', async () => {
    const pa = await window(a);
    await openSpace(pa);
    await pa.getByRole('button', { name: 'Comments' }).click();
    await pa.getByPlaceholder('Add a comment on this page…').fill('Should we mention **Windows** here?');
    await pa.getByRole('button', { name: 'Comment', exact: true }).click();
    const thread = pa.locator('.thread').first();
    await thread.waitFor();
    await thread.getByRole('button', { name: 'Reply' }).click();
    await thread.getByPlaceholder('Reply…').fill('Yes, with the installer steps.');
    await thread.getByRole('button', { name: 'Reply' }).click();
    await thread.locator('.reply').waitFor();
    await thread.getByRole('button', { name: 'Add a reaction' }).first().click();
    await thread.getByRole('button', { name: '👍' }).click();
    await expect.poll(() => thread.locator('.reaction.is-mine').count()).toBe(1);
    await allSent(a);
    await screenshot(pa, '06-comments');
    await thread.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => pa.locator('.thread').count()).toBe(0);
    await allSent(a);
    const list = await s.live.t.get(`/v1/spaces/${spaceId}/comments`, s.token);
    const posted = list.body.items.filter((c: { body: { markdown: string } }) => c.body.markdown === 'Should we mention **Windows** here?');
    expect(posted).toHaveLength(1);
    expect(posted[0].status).toBe('resolved');
    expect(posted[0].replies).toBe(1);
    await pa.close();
  });

  it('a passage commented on one machine is marked on the other, opens its thread there, and resolving it there unmarks it for both', async () => {
    const pa = await window(a);
    const pb = await window(b);
    await openSpace(pa);
    await openSpace(pb);
    await select(pa, 'h2', 'Install', 'Install'.length);
    await pa.getByRole('button', { name: 'Comment on the selection' }).click();
    await pa.keyboard.type('Which installer?');
    await pa.keyboard.press('Enter');
    await pa.locator('.thread', { hasText: 'Which installer?' }).waitFor();
    const markA = pa.locator('.ProseMirror .qe-comment-highlight');
    await expect.poll(() => markA.allTextContents()).toEqual(['Install']);
    await allSent(a);
    // On the other machine the mark names the comment by the server's id, which is the one it knows.
    const markB = pb.locator('.ProseMirror .qe-comment-highlight');
    await expect.poll(() => markB.allTextContents(), { timeout: 15_000 }).toEqual(['Install']);
    await markB.click();
    const threadB = pb.locator('.thread.is-focused', { hasText: 'Which installer?' });
    await threadB.waitFor({ timeout: 15_000 });
    await threadB.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => markB.count()).toBe(0);
    await expect.poll(() => markA.count(), { timeout: 15_000 }).toBe(0);
    await pa.close();
    await pb.close();
  });

  it('search within a space, and the page tree: add, rename, reorder by drag and drop, delete', async () => {
    const pa = await window(a);
    await openSpace(pa);
    await pa.getByLabel('Search this space').fill('offline');
    await pa.locator('.search-hit').first().waitFor();
    await screenshot(pa, '07-search');
    await pa.locator('.search-hit', { hasText: 'FAQ' }).click();
    await expect.poll(() => pa.locator('.page-title').inputValue()).toBe('FAQ');

    await pa.getByRole('button', { name: 'Add a page', exact: true }).click();
    const rename = pa.locator('.tree-rename');
    await rename.fill('Release notes');
    await rename.press('Enter');
    const rows = () => pa.locator('.tree li[aria-level="1"] > .tree-row .tree-title').allTextContents();
    await expect.poll(rows).toEqual(['Getting started', 'Guides', 'FAQ', 'Release notes']);
    // Drag "Release notes" above "Getting started".
    const source = pa.locator('.tree-row', { hasText: 'Release notes' });
    const target = pa.locator('.tree-row', { hasText: 'Getting started' });
    await source.dragTo(target, { targetPosition: { x: 40, y: 3 } });
    await expect.poll(rows).toEqual(['Release notes', 'Getting started', 'Guides', 'FAQ']);
    await screenshot(pa, '08-page-tree');
    await pa.locator('.tree-row', { hasText: 'Release notes' }).hover();
    await pa.locator('.tree-row', { hasText: 'Release notes' }).getByRole('button', { name: 'Delete' }).click();
    await pa.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(rows).toEqual(['Getting started', 'Guides', 'FAQ']);
    await pa.close();
  });

  it('writing: markdown shortcuts, pasted markdown and HTML, and an image from a file', async () => {
    const pa = await window(a);
    await openSpace(pa);
    await pa.getByRole('button', { name: 'Add a page', exact: true }).click();
    const rename = pa.locator('.tree-rename');
    await rename.fill('Writing tour');
    await rename.press('Enter');
    await expect.poll(() => pa.locator('.page-title').inputValue()).toBe('Writing tour');
    const editor = pa.locator('.ProseMirror');
    await editor.click();
    await pa.keyboard.type('## Shortcuts', { delay: 10 });
    await pa.keyboard.press('Enter');
    await pa.keyboard.type('- Lists start with a dash', { delay: 10 });
    await pa.keyboard.press('Enter');
    await pa.keyboard.type('and keep going', { delay: 10 });
    await pa.keyboard.press('Enter');
    await pa.keyboard.press('Enter');
    await pa.keyboard.type('Marks too: **bold** and `code` as you type.', { delay: 10 });
    await pa.keyboard.press('Enter');
    await expect.poll(() => editor.locator('h2').allTextContents()).toEqual(['Shortcuts']);
    expect(await editor.locator('ul > li').allTextContents()).toEqual(['Lists start with a dash', 'and keep going']);
    expect(await editor.locator('strong').allTextContents()).toEqual(['bold']);
    expect(await editor.locator('p code').allTextContents()).toEqual(['code']);

    await paste(pa, { 'text/plain': '> Pasted as **markdown**\n\n1. one\n2. two\n' });
    await expect.poll(() => editor.locator('blockquote').textContent()).toBe('Pasted as markdown');
    expect(await editor.locator('ol > li').allTextContents()).toEqual(['one', 'two']);
    // Out of the list, then a paste from a web page.
    await pa.keyboard.press('Control+End');
    await pa.keyboard.press('Enter');
    await pa.keyboard.press('Enter');
    await paste(pa, {
      'text/html':
        '<h3>From a web page</h3><p>With <em>emphasis</em> and <a href="https://example.com/guide">a link</a>.</p><script>alert(1)</script>',
      'text/plain': 'From a web page',
    });
    await expect.poll(() => editor.locator('h3').allTextContents()).toEqual(['From a web page']);
    expect(await editor.locator('a[href="https://example.com/guide"]').textContent()).toBe('a link');

    const chooser = pa.waitForEvent('filechooser');
    await pa.getByRole('button', { name: 'Image from a file' }).click();
    await (await chooser).setFiles({ name: 'sync-diagram.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(DIAGRAM) });
    // Kept as a space file: shown from this machine's copy, never as inline data.
    await expect.poll(() => editor.locator('img[src^="blob:"]').count()).toBe(1);
    expect(await editor.locator('img[src^="data:"]').count()).toBe(0);
    await expect.poll(() => pa.getByTestId('save-state').textContent()).toBe('Saved');
    await screenshot(pa, '11-writing');

    // What the window shows is what the LocalNode stored: the shared content schema, as markdown.
    const [local] = await a.node.db.query<{ id: string }>('SELECT id FROM spaces WHERE remote_id = $1', [spaceId]);
    const markdown = await a.node.branches.with({ spaceId: local?.id ?? '' }, (branch) => {
      const page = listPages(branch.doc).find((p) => p.title === 'Writing tour');
      return page ? getPageMarkdown(branch.doc, page.id) : '';
    });
    for (const part of [
      /^## Shortcuts$/m,
      /^[*-] Lists start with a dash$/m,
      /\*\*bold\*\* and `code`/,
      /^> Pasted as \*\*markdown\*\*$/m,
      /^1\. one$/m,
      /^### From a web page$/m,
      /[*_]emphasis[*_] and \[a link\]\(https:\/\/example\.com\/guide\)/,
      // A space file by id: `upload:` until the server acknowledged its bytes, `file:` after.
      /!\[sync-diagram\]\((?:upload|file):[A-Za-z0-9_-]{20,}\)/,
    ])
      expect(markdown).toMatch(part);
    expect(markdown).not.toContain('alert');
    expect(markdown).not.toContain('data:');
    await pa.close();
  });

  it('an image inserted offline shows at once, and once back online the server serves it under the same id', async () => {
    const pa = await window(a);
    await openSpace(pa);
    await pa.locator('.tree-row', { hasText: 'FAQ' }).click();
    await expect.poll(() => pa.locator('.page-title').inputValue()).toBe('FAQ');
    await expect.poll(() => pa.getByTestId('sync-status').textContent(), { timeout: 10_000 }).toBe('Online');
    await pa.getByLabel('Work offline').check({ force: true });
    await expect.poll(() => pa.getByTestId('sync-status').textContent()).toBe('Working offline');
    await typeAtEnd(pa, ' A picture of it:');
    const chooser = pa.waitForEvent('filechooser');
    await pa.getByRole('button', { name: 'Image from a file' }).click();
    await (await chooser).setFiles({ name: 'offline-diagram.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(DIAGRAM) });
    const editor = pa.locator('.ProseMirror');
    await expect.poll(() => editor.locator('img[src^="blob:"]').count()).toBe(1);
    // One page and one file wait, however many keys were typed.
    await expect.poll(() => pa.getByTestId('sync-detail').textContent(), { timeout: 10_000 }).toBe('1 page and 1 file waiting to be sent');
    await screenshot(pa, '11b-offline-image');
    const [local] = await a.node.db.query<{ id: string }>('SELECT id FROM spaces WHERE remote_id = $1', [spaceId]);
    const markdown = await a.node.branches.with({ spaceId: local?.id ?? '' }, (branch) => {
      const page = listPages(branch.doc).find((p) => p.title === 'FAQ');
      return page ? getPageMarkdown(branch.doc, page.id) : '';
    });
    // Referred to as uploading: the page may reach the server before the file, never pointing at it.
    const fileId = /!\[offline-diagram\]\(upload:([A-Za-z0-9_-]+)\)/.exec(markdown)?.[1] as string;
    expect(fileId).toBeTruthy();
    expect((await s.live.t.get(`/v1/spaces/${spaceId}/content/files/${fileId}`, s.token)).status).toBe(404);
    await editor.getByText('Waiting for upload').waitFor();

    await pa.getByLabel('Work offline').uncheck({ force: true });
    await allSent(a);
    await eventually(
      () =>
        a.node.branches.with({ spaceId: local?.id ?? '' }, (branch) => {
          const page = listPages(branch.doc).find((p) => p.title === 'FAQ');
          return !!page && getPageMarkdown(branch.doc, page.id).includes(`(file:${fileId})`);
        }),
      'the page to point at the uploaded file',
      20_000,
    );
    await expect.poll(() => editor.getByText('Waiting for upload').count()).toBe(0);
    await expect.poll(() => pa.getByTestId('sync-detail').textContent(), { timeout: 15_000 }).toBe('All changes synced');
    let url = '';
    await eventually(
      async () => {
        const file = await s.live.t.get(`/v1/spaces/${spaceId}/content/files/${fileId}`, s.token);
        url = file.status === 200 ? file.body.downloadURL : '';
        return !!url;
      },
      'the server to serve the file',
      20_000,
    );
    const link = new URL(url);
    const served = await fetch(`${s.url}${link.pathname}${link.search}`);
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(await served.text()).toBe(DIAGRAM);
    // The other machine, which never had the file, shows it from the server.
    const pb = await window(b);
    await openSpace(pb);
    await pb.locator('.tree-row', { hasText: 'FAQ' }).click();
    await expect.poll(() => pb.locator('.ProseMirror img[src^="blob:"]').count(), { timeout: 20_000 }).toBe(1);
    await screenshot(pb, '11c-image-from-server');
    await pa.close();
    await pb.close();
  });

  it('a change request is created, edited, reviewed and merged', async () => {
    const pa = await window(a);
    await openSpace(pa);
    await pa.locator('.branch-btn').click();
    await pa.getByRole('menuitem', { name: 'New change request' }).click();
    await pa.getByRole('dialog').locator('input').fill('Explain Windows installs');
    await pa.getByRole('dialog').getByRole('button', { name: 'Open change request' }).click();
    // A new change request opens on the page being edited, ready to write in.
    await expect.poll(() => pa.getByRole('tab', { name: 'Edit' }).getAttribute('aria-selected')).toBe('true');
    await pa.locator('.ProseMirror').waitFor();
    await typeAtEnd(pa, ' On Windows, run the installer.');
    await pa.getByRole('tab', { name: 'Changes' }).click();
    // Typed at the end of a task item: that item's new words, inside the list, not the list replaced.
    await expect
      .poll(() => pa.locator('.diff-changed li.diff-node-changed ins').allTextContents(), { timeout: 10_000 })
      .toEqual([' On Windows, run the installer.']);
    expect(await pa.locator('.diff-added, .diff-removed').count()).toBe(0);
    await expect.poll(() => pa.locator('.branch-name').textContent(), { timeout: 30_000 }).toMatch(/^#\d+ Explain Windows installs$/);

    // Someone else changes main meanwhile: the change request is outdated until it takes main in.
    await b.node.branches.with({ spaceId }, async (main) => {
      await b.node.branches.reconnect({ spaceId });
      await main.flushToServer(20_000);
      const faq = listPages(main.doc).find((p) => p.title === 'FAQ');
      expect(faq).toBeDefined();
      setPageMarkdown(
        main.doc,
        faq?.id ?? '',
        '## Does Quire work offline?\n\nYes: edits are saved on your machine first, and sent later.',
      );
      await main.flushToServer(20_000);
    });
    await pa.locator('.review .badge', { hasText: 'Outdated' }).waitFor({ timeout: 30_000 });
    await screenshot(pa, '09-change-request');
    await pa.getByRole('button', { name: 'Update from main' }).click();
    await expect.poll(() => pa.locator('.review .badge', { hasText: 'Outdated' }).count(), { timeout: 30_000 }).toBe(0);

    await pa.getByRole('button', { name: 'Merge', exact: true }).click();
    await pa.getByRole('dialog').getByRole('button', { name: 'Merge' }).click();
    await expect.poll(() => pa.locator('.review-badges').textContent(), { timeout: 30_000 }).toContain('Merged');
    await screenshot(pa, '10-merged');

    // Main now has the change, on this machine and on the other one.
    await pa.getByRole('button', { name: 'Back to main' }).click();
    await expect.poll(() => pa.locator('.ProseMirror').textContent(), { timeout: 20_000 }).toContain('On Windows, run the installer.');
    const pb = await window(b);
    await openSpace(pb);
    await expect.poll(() => pb.locator('.ProseMirror').textContent(), { timeout: 20_000 }).toContain('On Windows, run the installer.');
    await pa.close();
    await pb.close();
    // The longest flow: two round trips through the server's revisions (outdated, then merged).
  }, 90_000);

  it('works on this device only, then publishes the space to a server', async () => {
    const c = await startMachine();
    try {
      const pc = await window(c);
      await pc.getByRole('button', { name: 'Work on this device only' }).click();
      await pc.getByRole('heading', { name: 'Pick a space' }).waitFor();
      await pc.getByRole('main').getByRole('button', { name: 'New space' }).click();
      await pc.getByRole('dialog').locator('input[name=title]').fill('Field notes');
      await pc.getByRole('dialog').getByRole('button', { name: 'Create space' }).click();
      await typeAtEnd(pc, 'Written with no server at all.');
      await expect.poll(() => pc.getByTestId('save-state').textContent()).toBe('Saved');
      await expect.poll(() => pc.getByTestId('sync-status').textContent()).toBe('On this device');
      await screenshot(pc, '12-local-only');

      // Later: sign in, and publish the space with what was written meanwhile.
      await pc.locator('.account').click();
      await pc.getByRole('dialog').getByRole('button', { name: 'Connect to a server' }).click();
      await pc.fill('input[name=server]', s.url);
      await pc.fill('input[name=token]', s.token);
      await pc.click('button[type=submit]');
      await pc.getByRole('button', { name: 'Publish this space to the server' }).click();
      await pc.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
      const serverSpace = async () =>
        ((await s.live.t.get(`/v1/orgs/${s.orgId}/spaces`, s.token)).body.items as { id: string; title: string }[]).find(
          (x) => x.title === 'Field notes',
        );
      await expect.poll(serverSpace, { timeout: 30_000 }).toBeDefined();
      await expect.poll(() => pc.locator('.space-row .badge', { hasText: 'Publishing' }).count(), { timeout: 30_000 }).toBe(0);
      await expect.poll(() => pc.getByTestId('sync-detail').textContent(), { timeout: 30_000 }).toBe('All changes synced');
      const published = await serverSpace();
      // Another machine opens it from the server, text included.
      await b.node.catalog.refresh();
      await b.node.branches.with({ spaceId: published?.id ?? '' }, async (branch) => {
        await b.node.branches.reconnect({ spaceId: published?.id ?? '' });
        const text = () => {
          const first = listPages(branch.doc)[0];
          return first ? getPageMarkdown(branch.doc, first.id) : '';
        };
        await eventually(() => text().includes('Written with no server at all.'), 'the published text on another machine', 20_000);
      });
      await pc.close();
    } finally {
      await c.close();
    }
  }, 60_000);

  it('no page error in any window', () => {
    expect(errors).toEqual([]);
  });
});

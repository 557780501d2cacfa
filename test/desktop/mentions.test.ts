import { getPageDocument } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { createPage } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Machine, ensureRendererBuilt, launchChromium, openWindow, screenshot, startMachine } from './helpers/browser';
import { type QuireTestServer, startQuireServer } from './helpers/server';

/**
 * `@` mentions a member of the space's organization: the list comes from the server and is
 * kept on the machine for offline use; the mention is the content model's link mark
 * (`user:<id>`, text `@Name`), so it syncs and exports as any link does.
 */

let s: QuireTestServer;
let a: Machine;
let browser: Browser;
let spaceId: string;
let pageId: string;
let other: { id: string; displayName: string };

function links(node: NodeJSON, out: { text: string; href: string }[] = []) {
  for (const mark of node.marks ?? []) if (mark.type === 'link') out.push({ text: node.text ?? '', href: String(mark.attrs?.href) });
  node.content?.forEach((child) => links(child, out));
  return out;
}

async function openTeamPage(): Promise<{ page: Page; errors: string[] }> {
  const w = await openWindow(browser, a);
  await w.page.locator('.space-row', { hasText: 'Team' }).first().click();
  await w.page.locator('.tree-row', { hasText: 'Standup' }).first().click();
  await w.page.locator('.ProseMirror[contenteditable="true"]').waitFor();
  await w.page.locator('.ProseMirror p', { hasText: 'Owner:' }).click();
  await w.page.keyboard.press('End');
  return w;
}

beforeAll(async () => {
  await ensureRendererBuilt();
  s = await startQuireServer();
  a = await startMachine();
  await a.node.session.connect(s.url, s.token);
  const me = (await s.live.t.get('/v1/user', s.otherToken)).body as { id: string; displayName: string };
  other = { id: me.id, displayName: me.displayName };
  const created = await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Team' });
  expect(created.status).toBe(201);
  spaceId = created.body.id as string;
  await a.node.catalog.refresh();
  pageId = await a.node.branches.with({ spaceId }, async (branch) => {
    const id = createPage(branch.doc, { title: 'Standup', markdown: 'Owner:\n' });
    await branch.saved();
    return id;
  });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await a?.close();
  await s?.close();
});

describe('mentions in the desktop editor', { timeout: 90_000 }, () => {
  it('@ suggests the organization members; the mention syncs and exports as @Name', async () => {
    const { page, errors } = await openTeamPage();
    const first = other.displayName.split(/\s+/)[0] as string;
    await page.keyboard.type(` @${first.slice(0, 3)}`);
    const list = page.getByRole('listbox', { name: 'Mention a member' });
    await expect.poll(() => list.getByRole('option').first().textContent()).toContain(other.displayName);
    await screenshot(page, 'mentions-suggestions');
    await page.keyboard.press('Enter');
    await page.keyboard.type('leads.');
    await expect
      .poll(() => page.locator('.ProseMirror p', { hasText: 'Owner:' }).textContent())
      .toBe(`Owner: @${other.displayName} leads.`);
    const mention = { text: `@${other.displayName}`, href: `user:${other.id}` };
    await expect.poll(() => a.node.branches.with({ spaceId }, (b) => links(getPageDocument(b.doc, pageId)))).toEqual([mention]);
    // On the server, and in what an export writes.
    await expect
      .poll(
        async () => {
          const res = await s.live.t.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`, s.token);
          return res.status === 200 ? (res.body.markdown as string) : '';
        },
        { timeout: 30_000 },
      )
      .toContain(`[@${other.displayName}](user:${other.id})`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('offline, the members the server listed last are still suggested', async () => {
    await a.node.session.setWorkOffline(true);
    const kept = await a.node.members.list(spaceId);
    expect(kept.source).toBe('kept');
    expect(kept.members.map((m) => m.id)).toContain(other.id);
    const { page, errors } = await openTeamPage();
    await page.keyboard.type(` @${other.displayName.slice(0, 3)}`);
    const list = page.getByRole('listbox', { name: 'Mention a member' });
    await expect.poll(() => list.getByRole('option').first().textContent()).toContain(other.displayName);
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
    await page.close();
  });
});

import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { LocalNode } from '../../../desktop/src/local/LocalNode';
import { MemoryCredentialStore } from '../../../desktop/src/local/credentials';
import { type WebBridge, startWebBridge } from '../../../desktop/src/web/webBridge';
import { CHROMIUM, launchChromium } from '../../chromium';

export { CHROMIUM, launchChromium };

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
export const RENDERER_DIR = join(ROOT, 'desktop/dist/renderer');
export const ARTIFACTS = join(ROOT, 'test-artifacts/desktop');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Builds the renderer when its bundle is missing or older than its sources. */
export async function ensureRendererBuilt(): Promise<void> {
  const index = join(RENDERER_DIR, 'index.html');
  const sources = Math.max(
    newest(join(ROOT, 'desktop/src/renderer')),
    newest(join(ROOT, 'desktop/src/common')),
    newest(join(ROOT, 'shared/src')),
  );
  if (existsSync(index) && statSync(index).mtimeMs > sources) return;
  const { build } = await import('vite');
  // The test runner sets NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(ROOT, 'desktop/vite.config.ts'), logLevel: 'error', mode: 'production' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

/** A headless LocalNode with its own data directory behind the browser-mode bridge: one "machine". */
export interface Machine {
  node: LocalNode;
  bridge: WebBridge;
  dir: string;
  close(): Promise<void>;
}

export async function startMachine(): Promise<Machine> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-web-'));
  const node = await LocalNode.open({ dataDir: dir, credentials: new MemoryCredentialStore(), probeIntervalMs: 250 });
  const bridge = await startWebBridge({ node, rendererDir: RENDERER_DIR });
  return {
    node,
    bridge,
    dir,
    async close() {
      await bridge.close();
      await node.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What the editor's browser files start with: the renderer built, a machine working
 * locally (no server) with one space, and Chromium.
 */
export async function startLocalNotebook(): Promise<{ m: Machine; spaceId: string; browser: Browser }> {
  await ensureRendererBuilt();
  const m = await startMachine();
  await m.node.session.useLocal();
  const spaceId = (await m.node.catalog.createSpace({ title: 'Notebook' })).id;
  return { m, spaceId, browser: await launchChromium() };
}

/**
 * A window on a machine, with page errors collected (a test fails on any). `initScript`
 * runs in the window before the app does (to watch the DOM from its first node).
 */
export async function openWindow(
  browser: Browser,
  machine: Machine,
  options: { initScript?: () => void } = {},
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  if (options.initScript) await page.addInitScript(options.initScript);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(machine.bridge.url);
  return { page, errors };
}

/** A picture of the resting state: transitions run to their end at once, and no caret (rather than waiting for them). */
export const RESTING = { animations: 'disabled', caret: 'hide' } as const;

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), ...RESTING });
}

/**
 * Selects `length` characters of the editor's text from where `text` first appears inside
 * `within` (a caret when 0), the way a mouse would: the editor reads the DOM selection.
 */
export async function select(page: Page, within: string, text: string, length: number): Promise<void> {
  await page
    .locator(`.ProseMirror ${within}`)
    .first()
    .evaluate(
      (root, { text, length }) => {
        const nodes: Text[] = [];
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) nodes.push(walker.currentNode as Text);
        const whole = nodes.map((n) => n.data).join('');
        const at = whole.indexOf(text);
        if (at < 0) throw new Error(`“${text}” is not in the page`);
        const point = (offset: number): [Text, number] => {
          let left = offset;
          for (const n of nodes) {
            if (left <= n.data.length) return [n, left];
            left -= n.data.length;
          }
          throw new Error('offset past the text');
        };
        const range = document.createRange();
        range.setStart(...point(at));
        range.setEnd(...point(at + length));
        (root.closest('.ProseMirror') as HTMLElement).focus();
        const selection = document.getSelection() as Selection;
        selection.removeAllRanges();
        selection.addRange(range);
      },
      { text, length },
    );
  // The editor takes the DOM selection on the next selectionchange.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
}

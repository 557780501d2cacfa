import { existsSync } from 'node:fs';
import { type Browser, type BrowserServer, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

const LAUNCH = {
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
};
const SHARED_ENV = 'QUIRE_CHROMIUM_WS';

/**
 * Once per run: one Chromium that every browser test file connects to. Starting a browser
 * per file cost a second or two of CPU each, on two cores shared by the whole suite.
 */
export async function startSharedChromium(): Promise<(() => Promise<void>) | undefined> {
  if (!hasChromium || process.env[SHARED_ENV]) return undefined;
  const server: BrowserServer = await chromium.launchServer(LAUNCH);
  process.env[SHARED_ENV] = server.wsEndpoint();
  return () => server.close();
}

/**
 * A browser for one test file: a connection to the run's shared Chromium (closing it closes
 * what this file opened and disconnects), or a browser of its own outside a vitest run.
 */
export async function launchChromium(): Promise<Browser> {
  const shared = process.env[SHARED_ENV];
  if (shared) return chromium.connect(shared);
  return chromium.launch(LAUNCH);
}

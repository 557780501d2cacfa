import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../desktop/src/common/ipc';
import { MemoryCredentialStore } from '../../desktop/src/local/credentials';
import { Supervisor } from '../../desktop/src/supervisor/Supervisor';
import { eventually } from './helpers/server';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const NODE_ENTRY = join(ROOT, 'desktop/src/supervisor/nodeProcess.ts');

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** What the Electron main process does with the LocalNode, without Electron: run it, and restart it when it dies. */
describe('the LocalNode supervisor', { timeout: 120_000 }, () => {
  it('restarts a killed LocalNode, tells windows at once, answers what was in flight, and the window goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-supervised-'));
    dirs.push(dir);
    const supervisor = new Supervisor({
      entry: NODE_ENTRY,
      execArgv: ['--import', 'tsx'],
      dataDir: dir,
      credentials: new MemoryCredentialStore(),
    });
    await supervisor.start();
    const states: string[] = [];
    const window = supervisor.openSession((event, payload) => {
      if (event === 'backend') states.push((payload as { state: string }).state);
    });
    try {
      expect((await window.invoke('session.useLocal', {})).ok).toBe(true);
      expect((await window.invoke('spaces.create', { title: 'Survives' })).ok).toBe(true);

      const first = supervisor.pid;
      process.kill(first as number, 'SIGKILL');
      // Asked as it dies: answered all the same (done, or "try again"), never left hanging.
      const inFlight = window.invoke('catalog.get', {});
      await eventually(() => states.includes('lost'), 'the window to hear the backend is gone');
      expect(await inFlight).toHaveProperty('ok');
      // Asked while the process is gone: waits for the new one instead of failing.
      const during = window.invoke('catalog.get', {});
      await eventually(() => states.at(-1) === 'ready', 'the restart', 60_000);
      expect(supervisor.pid).not.toBe(first);
      expect(states).toEqual(['lost', 'starting', 'ready']);

      const answered = await during;
      expect(answered.ok).toBe(true);
      const catalog = (answered as { output: Catalog }).output;
      expect(catalog.localSpaces.map((s) => s.title)).toEqual(['Survives']);
      // The same window keeps working against the new process.
      expect((await window.invoke('backend.ping', {})).ok).toBe(true);
    } finally {
      await window.close();
      await supervisor.close();
    }
  });
});

import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spaceRoom } from '@quire/shared/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { WebsocketProvider } from 'y-websocket';
import { preparedDataDir } from '../../sync-server/src/testing/databases';
import { acknowledged, synced } from '../../sync-server/src/testing/syncClients';
import { ServerProcess, bearerClient } from './serverProcess';

const TOKEN = `qt_journal_${Math.random().toString(36).slice(2)}`;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function client(server: ServerProcess, room: string): WebsocketProvider {
  return bearerClient(server, room, TOKEN, cleanups);
}

/**
 * The embedded database's journal: an edit is acknowledged once its record is on disk,
 * before the database has it. A server killed at that moment replays the journal on start.
 */
const HOLD_DRAIN = `--import tsx --import ${pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'holdJournalDrain.mjs')).href}`;

describe.runIf(!process.env.DATABASE_URL)('a server killed right after acknowledging', () => {
  // One data directory through four starts: each start of a server process costs seconds of CPU.
  it(
    'replays on start what it acknowledged and never drained, and has every acknowledged edit after each kill',
    { timeout: 240_000 },
    async () => {
      const dataDir = preparedDataDir('quire-journal-kill-');
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const held = await ServerProcess.create({ DATA_DIR: dataDir, BOOTSTRAP_ADMIN_TOKEN: TOKEN, NODE_OPTIONS: HOLD_DRAIN });
      cleanups.push(() => held.kill());
      await held.start();
      const room = spaceRoom(await held.createSpace(TOKEN));
      const typist = client(held, room);
      await synced(typist, 20_000);
      typist.doc.getText('t').insert(0, 'only in the journal;');
      await acknowledged(typist, 20_000);
      await held.kill('SIGKILL');
      typist.destroy();

      const server = await ServerProcess.create({ DATA_DIR: dataDir });
      cleanups.push(() => server.kill());
      await server.start();
      const expected = ['only in the journal;'];
      const reader = client(server, room);
      await synced(reader, 20_000);
      expect(reader.doc.getText('t').toString()).toBe('only in the journal;');
      reader.destroy();

      for (const round of [1, 2]) {
        const typist = client(server, room);
        await synced(typist, 20_000);
        const words = Array.from({ length: 20 }, (_, i) => `r${round}w${i};`);
        for (const w of words) typist.doc.getText('t').insert(typist.doc.getText('t').length, w);
        await acknowledged(typist, 20_000);
        await server.kill('SIGKILL');
        typist.destroy();
        expected.push(...words);
        expect(readdirSync(join(dataDir, 'journal')).length).toBeGreaterThan(0);
        await server.start();
        const reader = client(server, room);
        await synced(reader, 20_000);
        const text = reader.doc.getText('t').toString();
        for (const w of expected) expect(text).toContain(w);
        reader.destroy();
      }
    },
  );
});

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spaceRoom } from '@quire/shared/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { acknowledged, synced, withBearer } from '../../sync-server/src/testing/syncClients';
import { ServerProcess } from './serverProcess';

const TOKEN = `qt_journal_${Math.random().toString(36).slice(2)}`;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function client(server: ServerProcess, room: string): WebsocketProvider {
  const p = new WebsocketProvider(server.wsUrl, room, new Y.Doc(), { WebSocketPolyfill: withBearer(TOKEN) as never, disableBc: true });
  cleanups.push(() => p.destroy());
  return p;
}

/**
 * The embedded database's journal: an edit is acknowledged once its record is on disk,
 * before the database has it. A server killed at that moment replays the journal on start.
 */
describe.runIf(!process.env.DATABASE_URL)('a server killed right after acknowledging', () => {
  it('has every acknowledged edit after the restart', { timeout: 240_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-journal-kill-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const server = await ServerProcess.create({ DATA_DIR: dataDir, BOOTSTRAP_ADMIN_TOKEN: TOKEN });
    cleanups.push(() => server.kill());
    await server.start();
    const room = spaceRoom(await server.createSpace(TOKEN));
    const expected: string[] = [];
    for (const round of [1, 2, 3]) {
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
  });
});

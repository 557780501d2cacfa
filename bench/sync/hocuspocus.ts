/**
 * The reference server of the sync benchmark: `@hocuspocus/server` with its usual
 * persistence, a debounced snapshot per document (`onStoreDocument`), here to a file.
 * Run as a process: `PORT=1234 DATA_DIR=/tmp/x node --import tsx bench/sync/hocuspocus.ts`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Server } from '@hocuspocus/server';
import * as Y from 'yjs';

const dir = process.env.DATA_DIR ?? '.';
const server = new Server({
  port: Number(process.env.PORT ?? 1234),
  address: '127.0.0.1',
  quiet: true,
  // Loads what it stored, as a deployment would, so a restart shows what survived.
  async onLoadDocument({ documentName, document }) {
    const stored = await readFile(join(dir, `${encodeURIComponent(documentName)}.bin`)).catch(() => undefined);
    if (stored) Y.applyUpdate(document, new Uint8Array(stored));
    return document;
  },
  async onStoreDocument({ documentName, document }) {
    await writeFile(join(dir, `${encodeURIComponent(documentName)}.bin`), Y.encodeStateAsUpdate(document));
  },
});
await server.listen();

/**
 * `npm run desktop:web`: the app in a browser. The LocalNode (its data in QUIRE_DATA_DIR,
 * default ./.quire-web) runs in a process of its own under a Supervisor, as in the Electron
 * app, behind the WebSocket bridge; this process serves the built renderer.
 *
 *   PORT=5178 QUIRE_DATA_DIR=./my-data npm run desktop:web
 *   QUIRE_SERVER_URL=http://localhost:8080 QUIRE_TOKEN=… npm run desktop:web   (signs in on start)
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileCredentialStore } from '../local/credentials';
import { Supervisor } from '../supervisor/Supervisor';
import { startWebBridge } from './webBridge';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = resolve(process.env.QUIRE_DATA_DIR ?? '.quire-web');
const supervisor = new Supervisor({
  entry: join(here, '../supervisor/nodeProcess.ts'),
  execArgv: ['--import', 'tsx'],
  dataDir,
  credentials: new FileCredentialStore(join(dataDir, 'credentials.json')),
});
await supervisor.start();
if (process.env.QUIRE_SERVER_URL && process.env.QUIRE_TOKEN) {
  const session = supervisor.openSession(() => {});
  const answer = await session.invoke('session.connect', { url: process.env.QUIRE_SERVER_URL, token: process.env.QUIRE_TOKEN });
  if (!answer.ok) console.error(`Could not sign in: ${answer.error.message}`);
  await session.close();
}
const bridge = await startWebBridge({
  sessions: supervisor.openSession,
  rendererDir: process.env.QUIRE_RENDERER_DIR ?? join(here, '../../dist/renderer'),
  port: Number(process.env.PORT ?? 5178),
  host: process.env.HOST ?? '127.0.0.1',
});
console.log(`Quire (browser mode) at ${bridge.url}, data in ${dataDir}`);

const stop = async () => {
  await bridge.close();
  await supervisor.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());

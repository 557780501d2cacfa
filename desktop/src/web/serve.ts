/**
 * `npm run desktop:web`: the app in a browser. A headless LocalNode (its data in
 * QUIRE_DATA_DIR, default ./.quire-web) behind the WebSocket bridge, and the built renderer.
 *
 *   PORT=5178 QUIRE_DATA_DIR=./my-data npm run desktop:web
 *   QUIRE_SERVER_URL=http://localhost:8080 QUIRE_TOKEN=… npm run desktop:web   (signs in on start)
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileCredentialStore } from '../local/credentials';
import { LocalNode } from '../local/LocalNode';
import { startWebBridge } from './webBridge';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = resolve(process.env.QUIRE_DATA_DIR ?? '.quire-web');
const node = await LocalNode.open({ dataDir, credentials: new FileCredentialStore(join(dataDir, 'credentials.json')) });
if (process.env.QUIRE_SERVER_URL && process.env.QUIRE_TOKEN) {
  await node.connect(process.env.QUIRE_SERVER_URL, process.env.QUIRE_TOKEN);
}
const bridge = await startWebBridge({
  node,
  rendererDir: process.env.QUIRE_RENDERER_DIR ?? join(here, '../../dist/renderer'),
  port: Number(process.env.PORT ?? 5178),
  host: process.env.HOST ?? '127.0.0.1',
});
console.log(`Quire (browser mode) at ${bridge.url}, data in ${dataDir}`);

const stop = async () => {
  await bridge.close();
  await node.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());

/**
 * `npm run desktop:build`: the three bundles the Electron app runs.
 *   dist/renderer  the React app (Vite)
 *   dist/main      the main process and the LocalNode's process, ESM (esbuild); runtime packages stay in node_modules
 *   dist/preload   the preload, CommonJS as sandboxed preloads require (esbuild)
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { ELECTRON_EVENT, ELECTRON_INVOKE, IPC_CHANNELS, IPC_EVENTS } from '../src/common/ipc';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
const started = Date.now();

await viteBuild({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });

// Runtime packages load from node_modules (PGlite finds its wasm next to itself; Yjs and
// ProseMirror must be one instance). The workspace's own TypeScript (`@quire/shared`) is bundled.
const external = ['electron', ...Object.keys(pkg.dependencies), 'prosemirror-*'];
await esbuild({
  entryPoints: [join(root, 'src/main/main.ts')],
  outfile: join(root, 'dist/main/main.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  sourcemap: true,
  logLevel: 'warning',
});
// The LocalNode's own process, started (and restarted) by the main process's Supervisor.
await esbuild({
  entryPoints: [join(root, 'src/supervisor/nodeProcess.ts')],
  outfile: join(root, 'dist/main/localNode.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  sourcemap: true,
  logLevel: 'warning',
});
await esbuild({
  entryPoints: [join(root, 'src/preload/preload.ts')],
  outfile: join(root, 'dist/preload/preload.cjs'),
  bundle: true,
  platform: 'browser',
  format: 'cjs',
  target: 'chrome120',
  external: ['electron'],
  define: { __QUIRE_IPC__: JSON.stringify({ channels: IPC_CHANNELS, events: IPC_EVENTS, invoke: ELECTRON_INVOKE, event: ELECTRON_EVENT }) },
  sourcemap: true,
  logLevel: 'warning',
});
console.log(
  `desktop bundles built in ${((Date.now() - started) / 1000).toFixed(1)} s: dist/renderer, dist/main/main.mjs, dist/main/localNode.mjs, dist/preload/preload.cjs`,
);

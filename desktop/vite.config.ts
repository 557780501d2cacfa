import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The renderer bundle, shared by the Electron app (loaded from file://, hence the relative
 * base) and the browser mode (served by src/web/serve.ts).
 */
export default defineConfig({
  root: resolve(here, 'src/renderer'),
  base: './',
  plugins: [react()],
  resolve: {
    // One copy of each: Yjs and ProseMirror break in subtle ways when loaded twice.
    dedupe: [
      'yjs',
      'y-prosemirror',
      'y-protocols',
      'lib0',
      'prosemirror-model',
      'prosemirror-state',
      'prosemirror-view',
      'prosemirror-transform',
    ],
  },
  build: {
    outDir: resolve(here, 'dist/renderer'),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2500,
  },
  logLevel: 'warn',
});

import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Plugin, build } from 'esbuild';

/**
 * Tests start the server and the desktop's local node as real processes dozens of times
 * (SIGKILL, restarts, several instances). Under `--import tsx` each start spends seconds
 * resolving and transpiling hundreds of modules through the loader thread; one bundle of
 * our own sources per run, built here, starts on plain Node in about two thirds of the CPU.
 * Packages stay external (loaded from node_modules as `npm start` loads them), and every
 * `import.meta.url` keeps naming its source file, so migrations, workers and assets are
 * found where they are in the checkout.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const ENTRIES = {
  QUIRE_TEST_SERVER_BUNDLE: { entry: 'sync-server/src/main.ts', dir: 'sync-server/.test-bundle' },
  QUIRE_TEST_NODE_BUNDLE: { entry: 'test/desktop/helpers/nodeProcess.ts', dir: '.test-data/bundles' },
} as const;

const keepSourceUrls: Plugin = {
  name: 'keep-source-urls',
  setup(b) {
    // Our workspace packages are TypeScript: bundled. Every other package is loaded by Node.
    b.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith('@quire/') ? undefined : { external: true }));
    b.onLoad({ filter: /\.ts$/ }, (a) => ({
      contents: readFileSync(a.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(a.path).href)),
      loader: 'ts',
    }));
  },
};

/** Builds the bundles and names them in the environment the test workers inherit; returns their removal. */
export async function buildProcessBundles(): Promise<() => void> {
  const outputs: string[] = [];
  for (const [env, { entry, dir }] of Object.entries(ENTRIES)) {
    // Bundles live beside the package whose node_modules their imports resolve against.
    const outfile = join(ROOT, dir, `${entry.split('/').at(-1)!.replace(/\.ts$/, '')}-${process.pid}.mjs`);
    mkdirSync(dirname(outfile), { recursive: true });
    await build({
      entryPoints: [join(ROOT, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'inline',
      logLevel: 'warning',
      plugins: [keepSourceUrls],
    });
    process.env[env] = outfile;
    outputs.push(outfile);
  }
  return () => {
    for (const f of outputs) rmSync(f, { force: true });
  };
}

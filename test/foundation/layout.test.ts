import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository layout DESIGN.md fixes ("Repository layout"), and the boundaries between
 * its parts: shared code does no I/O and knows neither side, domain services know no HTTP
 * framework, the LocalNode runs without Electron.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Source files under `dir` (tests left out: they may use whatever helps them). */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sources(path));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** The module specifiers a file imports or re-exports. */
function imports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => (m[1] ?? m[2]) as string,
  );
}

/** `file: specifier` for every import of `files` that `bad` matches. */
function offending(files: string[], bad: (specifier: string, file: string) => boolean): string[] {
  return files.flatMap((f) =>
    imports(f)
      .filter((s) => bad(s, f))
      .map((s) => `${f}: ${s}`),
  );
}

describe('repository layout', () => {
  it('is npm workspaces shared, sync-server and desktop, with the start, test, desktop and bench scripts', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.workspaces).toEqual(['shared', 'sync-server', 'desktop']);
    for (const script of ['start', 'test', 'desktop', 'bench']) expect(pkg.scripts[script], script).toEqual(expect.any(String));
    for (const file of ['electron-builder.yml', 'README.md']) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });

  it('has the parts each package is made of', () => {
    for (const dir of [
      'sync-server/src/http',
      'sync-server/src/core',
      'sync-server/src/store',
      'sync-server/src/store/migrations',
      'sync-server/src/sync',
      'sync-server/src/sites',
      'sync-server/src/cli',
      'desktop/src/main',
      'desktop/src/preload',
      'desktop/src/renderer',
      'desktop/src/local',
      'shared/src/schemas',
      'shared/src/content',
      'test',
    ]) {
      expect(existsSync(join(ROOT, dir)) && statSync(join(ROOT, dir)).isDirectory(), dir).toBe(true);
    }
  });

  it('keeps shared/ free of I/O and of server or desktop code', () => {
    const io = /^(node:)?(fs|fs\/promises|net|http|https|http2|child_process|dgram|worker_threads|cluster)$/;
    const sides = /^(pg|@electric-sql\/pglite|hono|@hono\/|ws$|electron)|sync-server|desktop/;
    expect(offending(sources('shared/src'), (s) => io.test(s) || sides.test(s))).toEqual([]);
  });

  it('keeps the domain services free of the HTTP framework and the routes', () => {
    const bad = (s: string, file: string) => {
      if (/^(hono|@hono\/)/.test(s)) return true;
      if (!s.startsWith('.')) return false;
      const target = relative(join(ROOT, 'sync-server/src'), join(ROOT, dirname(file), s));
      return target.startsWith('http/');
    };
    expect(offending([...sources('sync-server/src/core'), ...sources('sync-server/src/store')], bad)).toEqual([]);
  });

  it('runs the LocalNode without Electron, and the renderer without Node or Electron', () => {
    expect(offending(sources('desktop/src/local'), (s) => s === 'electron' || s.startsWith('electron/'))).toEqual([]);
    expect(offending(sources('desktop/src/renderer'), (s) => s === 'electron' || s.startsWith('node:'))).toEqual([]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The renderer never touches the database: everything it knows of the LocalNode comes
 * through the typed bridge (Electron IPC or the browser mode's WebSocket). Checked on the
 * sources, so a stray import fails here rather than in a packaged app.
 */

const RENDERER = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = resolve(RENDERER, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)) found.push(match[1] as string);
  return found;
}

describe('the renderer', () => {
  it('reaches the LocalNode only through the typed bridge: no database, Node, Electron or LocalNode import', () => {
    const offending: string[] = [];
    const files = sources(RENDERER);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      for (const spec of imports(file)) {
        const inside = spec.startsWith('.') ? relative(SRC, resolve(dirname(file), spec)).split(/[\\/]/)[0] : undefined;
        const forbidden =
          (inside !== undefined && inside !== 'renderer' && inside !== 'common') ||
          spec.startsWith('node:') ||
          /^(@electric-sql\/pglite|pg|electron|ws)(\/|$)/.test(spec);
        if (forbidden) offending.push(`${relative(SRC, file)}: ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('has one bridge with the two transports: the Electron preload and the browser mode WebSocket', () => {
    const bridge = readFileSync(join(RENDERER, 'bridge', 'index.ts'), 'utf8');
    expect(bridge).toContain('window.quire');
    expect(bridge).toContain('createWebSocketBridge');
    const preload = readFileSync(join(SRC, 'preload', 'preload.ts'), 'utf8');
    expect(preload).toMatch(/contextBridge\.exposeInMainWorld\(\s*'quire'/);
  });
});

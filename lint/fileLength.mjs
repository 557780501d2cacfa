// No source file over 500 lines: a module that long holds more than one idea, and is split
// along its seams. Tests are exempt (a scenario file reads top to bottom, and splitting it
// only scatters its setup). Run by `npm run lint`; no exceptions are listed: a file over the
// limit is split.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const MAX_LINES = 500;
const ROOTS = ['shared/src', 'sync-server/src', 'desktop/src'];
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;
const TEST = /\.test\.tsx?$/;

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* sources(path);
    } else if (SOURCE.test(entry.name) && !TEST.test(entry.name)) yield path;
  }
}

const tooLong = [];
for (const root of ROOTS) {
  for (const path of sources(root)) {
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_LINES) tooLong.push(`${path}: ${lines} lines`);
  }
}
if (tooLong.length) {
  console.error(`Source files over ${MAX_LINES} lines (split them along their seams):\n  ${tooLong.join('\n  ')}`);
  process.exit(1);
}

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import * as fontkit from 'fontkit';

/** How a run of text is set; each maps to a chain of faces tried in order. */
export type FontRole = 'text' | 'bold' | 'italic' | 'boldItalic' | 'mono' | 'monoBold';

/** One file of a face and the characters it is meant for (its CSS `unicode-range`). */
interface Slice {
  file: string;
  ranges: [number, number][];
  face?: fontkit.Font;
}

/**
 * A face as a list of slices. The Noto faces come from the @fontsource packages, which
 * split each face by Unicode range (CJK into a hundred files): a document loads only the
 * slices its characters fall in, and pdfkit embeds only the glyphs it draws.
 */
interface Face {
  slices: Slice[];
}

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

const RANGE = /U\+([0-9a-f]+)(?:-([0-9a-f]+))?/gi;

/** Reads a @fontsource stylesheet (`400.css`, `700-italic.css`) into slices. */
function fontsourceFace(pkg: string, css: string): Face {
  const dir = packageDir(pkg);
  const text = readFileSync(join(dir, css), 'utf8');
  const slices: Slice[] = [];
  for (const block of text.split('@font-face').slice(1)) {
    const url = /url\(\.\/(files\/[^)]+\.woff)\)/.exec(block)?.[1];
    if (!url) continue;
    const ranges: [number, number][] = [];
    const range = /unicode-range:([^;]+);/.exec(block)?.[1] ?? 'U+0-10FFFF';
    for (const m of range.matchAll(RANGE)) {
      const lo = Number.parseInt(m[1] as string, 16);
      ranges.push([lo, m[2] ? Number.parseInt(m[2], 16) : lo]);
    }
    slices.push({ file: join(dir, url), ranges });
  }
  return { slices };
}

function fileFace(path: string): Face {
  return { slices: [{ file: path, ranges: [[0, 0x10ffff]] }] };
}

let chains: Record<FontRole, Face[]> | undefined;

/**
 * Fallback order per role: Noto Sans (Latin, Greek, Cyrillic, Vietnamese), Noto Sans
 * Arabic, Hebrew, Devanagari and Thai, Noto Emoji (monochrome: PDF viewers cannot be
 * relied on for colour glyph tables), Noto Sans SC (Chinese, and the kana Japanese needs;
 * before KR so Han characters keep their Chinese forms), Noto Sans KR (Hangul), then
 * DejaVu for symbols none of those carry.
 */
function faceChains(): Record<FontRole, Face[]> {
  if (chains) return chains;
  const sans = (w: string) => fontsourceFace('@fontsource/noto-sans', `${w}.css`);
  const dejavu = (f: string) => fileFace(require.resolve(`dejavu-fonts-ttf/ttf/${f}`));
  const scripts = (weight: '400' | '700') =>
    ['arabic', 'hebrew', 'devanagari', 'thai'].map((s) => fontsourceFace(`@fontsource/noto-sans-${s}`, `${weight}.css`));
  const regular = [
    ...scripts('400'),
    fontsourceFace('@fontsource/noto-emoji', '400.css'),
    fontsourceFace('@fontsource/noto-sans-sc', '400.css'),
    fontsourceFace('@fontsource/noto-sans-kr', '400.css'),
    dejavu('DejaVuSans.ttf'),
  ];
  const strong = [
    ...scripts('700'),
    fontsourceFace('@fontsource/noto-emoji', '700.css'),
    fontsourceFace('@fontsource/noto-sans-sc', '700.css'),
    fontsourceFace('@fontsource/noto-sans-kr', '700.css'),
    dejavu('DejaVuSans-Bold.ttf'),
  ];
  chains = {
    text: [sans('400'), ...regular],
    bold: [sans('700'), ...strong],
    italic: [sans('400-italic'), sans('400'), ...regular],
    boldItalic: [sans('700-italic'), sans('700'), ...strong],
    mono: [fontsourceFace('@fontsource/noto-sans-mono', '400.css'), sans('400'), ...regular],
    monoBold: [fontsourceFace('@fontsource/noto-sans-mono', '700.css'), sans('700'), ...strong],
  };
  return chains;
}

const faces = new Map<string, fontkit.Font>();
const sfnts = new Map<string, Buffer>();

/**
 * A WOFF file as the plain font it wraps. fontkit inflates WOFF tables in pure
 * JavaScript, which took seconds per document with CJK slices; node's zlib does it in
 * milliseconds, once per process.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) return woff;
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables: { tag: number; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < numTables; i++) {
    const at = 44 + i * 20;
    const tag = woff.readUInt32BE(at);
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const checksum = woff.readUInt32BE(at + 16);
    const raw = woff.subarray(offset, offset + compLength);
    tables.push({ tag, checksum, data: compLength < origLength ? inflateSync(raw) : raw });
  }
  let entrySelector = 0;
  while (2 ** (entrySelector + 1) <= numTables) entrySelector++;
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + numTables * 16);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(numTables, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(numTables * 16 - searchRange, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    header.writeUInt32BE(t.tag, at);
    header.writeUInt32BE(t.checksum, at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(t.data.length, at + 12);
    const padded = Buffer.alloc((t.data.length + 3) & ~3);
    t.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

function load(slice: Slice): fontkit.Font {
  if (!slice.face) {
    let face = faces.get(slice.file);
    if (!face) {
      face = fontkit.create(fileBytes(slice.file)) as fontkit.Font;
      faces.set(slice.file, face);
    }
    slice.face = face;
  }
  return slice.face;
}

const covers = (s: Slice, cp: number) => s.ranges.some(([lo, hi]) => cp >= lo && cp <= hi);

const chosen = new Map<string, string | null>();

/**
 * The file that draws a character in a role: the first face of the chain whose slice
 * for it really has the glyph. Null when no face has it.
 */
export function fileFor(role: FontRole, cp: number): string | null {
  const key = `${role}:${cp}`;
  const cached = chosen.get(key);
  if (cached !== undefined) return cached;
  let found: string | null = null;
  for (const face of faceChains()[role]) {
    const slice = face.slices.find((s) => covers(s, cp));
    if (slice && load(slice).hasGlyphForCodePoint(cp)) {
      found = slice.file;
      break;
    }
  }
  chosen.set(key, found);
  return found;
}

/** Whether a loaded file has a glyph for the character (to keep spaces and punctuation in the run they sit in). */
export function fileHas(file: string, cp: number): boolean {
  const face = faces.get(file);
  return !!face && face.hasGlyphForCodePoint(cp);
}

/** Bytes of a face file, for registering with a document. */
export function fileBytes(file: string): Buffer {
  let bytes = sfnts.get(file);
  if (!bytes) {
    bytes = woffToSfnt(readFileSync(file));
    sfnts.set(file, bytes);
  }
  return bytes;
}

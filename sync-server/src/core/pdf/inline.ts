import bidiFactory from 'bidi-js';
import { type FontRole, fileFor, fileHas } from './fonts';

/** Where a piece of text points: a web address or a named destination inside the PDF. */
export type LinkTarget = { url: string } | { dest: string };

/** A run of text with one style, as the body gives it (marks already resolved). */
export interface Span {
  text: string;
  role: FontRole;
  size: number;
  color: string;
  link?: LinkTarget;
  code?: boolean;
  strike?: boolean;
  /** An image set in the line (an interface icon in a sentence), at the size it is drawn in points; its text is one placeholder. */
  image?: { data: Buffer; width: number; height: number };
}

/** A piece of a laid-out line: one font file, one bidi level, one span. */
export interface Piece {
  text: string;
  file: string;
  span: Span;
  level: number;
  width: number;
}

export interface Line {
  /** Pieces in visual order, left to right. */
  pieces: Piece[];
  width: number;
  height: number;
  /** Baseline offset from the top of the line. */
  ascent: number;
  rtl: boolean;
}

/** Measures text in a font file at a size; the document registers the file on first use. */
export type Measure = (file: string, size: number, text: string) => number;

const bidi = bidiFactory();
/** What an image in a line stands for in its text (U+FFFC OBJECT REPLACEMENT CHARACTER). */
const OBJECT = '\ufffc';
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;
const JOINER = /[\p{Mn}\p{Me}\u200c\u200d\ufe0e\ufe0f\u{1f3fb}-\u{1f3ff}]/u;
/** Characters a line may break before and after, as in CJK text, which has no spaces. */
const BREAK_AROUND = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Extended_Pictographic}\u3000-\u303f\uff00-\uffef]/u;
/** Right-to-left letters and the explicit direction controls; without any, a paragraph is left to right throughout. */
const RTL_ANY = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}\u200f\u202b\u202e\u2067]/u;
const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;

interface Char {
  ch: string;
  file: string;
  span: Span;
  level: number;
  /** A line may break before this character. */
  breakBefore: boolean;
  hard: boolean;
}

/**
 * Picks a face per character. Spaces, punctuation and marks stay in the face of the
 * character before them when it has them, so an Arabic phrase is shaped as one run and
 * a sentence is not cut into pieces at every comma.
 */
function charsOf(spans: Span[]): Char[] {
  const chars: Char[] = [];
  let prevFile: string | null = null;
  let prevBreakAfter = false;
  let prevRtl = false;
  let prevCh = '';
  for (const span of spans) {
    if (span.image) {
      // One unbreakable box, with a break allowed on either side.
      chars.push({ ch: OBJECT, file: '', span, level: 0, breakBefore: chars.length > 0, hard: false });
      prevBreakAfter = true;
      continue;
    }
    for (const raw of span.text.normalize('NFC')) {
      if (raw === '\n') {
        chars.push({ ch: '\n', file: prevFile ?? '', span, level: 0, breakBefore: true, hard: true });
        prevBreakAfter = true;
        continue;
      }
      let ch = raw === '\t' ? '    ' : raw;
      const cp = ch.codePointAt(0) ?? 63;
      if (cp < 32 || (cp >= 0x7f && cp < 0xa0)) ch = ' ';
      let file: string | null = null;
      // Spaces keep to the run only inside right-to-left text (where shaping needs one run);
      // elsewhere they take the main face, whose spaces have the usual width.
      const sticky = JOINER.test(ch) || (NEUTRAL.test(ch) && (!/\s/.test(ch) || prevRtl));
      // The part after a zero-width joiner (👩‍💻) belongs to the sequence: one run, one glyph.
      const joined = prevCh === '\u200d' && !!prevFile && fileHas(prevFile, ch.codePointAt(0) ?? 32);
      if (joined) file = prevFile;
      else if (sticky && prevFile && !prevFile.includes('noto-emoji') && fileHas(prevFile, ch.codePointAt(0) ?? 32)) file = prevFile;
      else if (JOINER.test(ch) && prevFile && fileHas(prevFile, ch.codePointAt(0) ?? 32)) file = prevFile;
      else file = fileFor(span.role, ch.codePointAt(0) ?? 32);
      if (!file) {
        if (JOINER.test(ch)) continue;
        ch = '?';
        file = fileFor(span.role, 63) as string;
      }
      const around = BREAK_AROUND.test(ch);
      const breakBefore = !JOINER.test(ch) && !joined && (prevBreakAfter || (around && chars.length > 0));
      chars.push({ ch, file, span, level: 0, breakBefore, hard: false });
      prevFile = file;
      prevCh = ch;
      if (!NEUTRAL.test(ch)) prevRtl = RTL_SCRIPT.test(ch);
      prevBreakAfter = /\s/.test(ch) || ch === '-' || ch === '/' || around;
    }
  }
  return chars;
}

/** Bidi levels per character (UAX #9), the paragraph direction taken from its first strong letter. */
function assignLevels(chars: Char[]): boolean {
  const text = chars.map((c) => c.ch).join('');
  // Most paragraphs have no right-to-left letter at all: every level is 0.
  if (!RTL_ANY.test(text)) return false;
  const result = bidi.getEmbeddingLevels(text);
  // Levels are per UTF-16 unit; walk both in step.
  let unit = 0;
  for (const c of chars) {
    c.level = result.levels[unit] ?? 0;
    unit += c.ch.length;
  }
  return (result.paragraphs[0]?.level ?? 0) % 2 === 1;
}

interface Word {
  pieces: Piece[];
  width: number;
  hard: boolean;
}

function wordsOf(chars: Char[], measure: Measure): Word[] {
  const words: Word[] = [];
  let cur: Char[] = [];
  const flush = () => {
    if (!cur.length) return;
    const pieces: Piece[] = [];
    for (const c of cur) {
      const last = pieces[pieces.length - 1];
      if (last && last.file === c.file && last.span === c.span && last.level === c.level) last.text += c.ch;
      else pieces.push({ text: c.ch, file: c.file, span: c.span, level: c.level, width: 0 });
    }
    let width = 0;
    for (const p of pieces) {
      p.width = p.span.image ? p.span.image.width : measure(p.file, p.span.size, p.text);
      width += p.width;
    }
    words.push({ pieces, width, hard: false });
    cur = [];
  };
  for (const c of chars) {
    if (c.hard) {
      flush();
      words.push({ pieces: [], width: 0, hard: true });
      continue;
    }
    if (c.breakBefore) flush();
    cur.push(c);
  }
  flush();
  return words;
}

/** A word wider than a line is cut between characters (long URLs, identifiers). */
function splitWide(word: Word, width: number, measure: Measure): Word[] {
  const out: Word[] = [];
  let pieces: Piece[] = [];
  let used = 0;
  for (const p of word.pieces) {
    if (p.span.image) {
      pieces.push(p);
      used += p.width;
      continue;
    }
    let text = '';
    for (const ch of p.text) {
      const w = measure(p.file, p.span.size, text + ch);
      if (used + w > width && (text || pieces.length)) {
        if (text) pieces.push({ ...p, text, width: measure(p.file, p.span.size, text) });
        out.push({ pieces, width: pieces.reduce((n, x) => n + x.width, 0), hard: false });
        pieces = [];
        used = 0;
        text = ch;
      } else text += ch;
    }
    if (text) {
      const w = measure(p.file, p.span.size, text);
      pieces.push({ ...p, text, width: w });
      used += w;
    }
  }
  if (pieces.length) out.push({ pieces, width: used, hard: false });
  return out;
}

/** Rule L2 of UAX #9 on pieces: from the highest level down to the lowest odd one, reverse each run at or above it. */
function visualOrder(pieces: Piece[]): Piece[] {
  const out = [...pieces];
  if (!out.length) return out;
  const max = Math.max(...out.map((p) => p.level));
  const minOdd = Math.min(...out.map((p) => (p.level % 2 ? p.level : p.level + 1)));
  for (let lvl = max; lvl >= minOdd; lvl--) {
    let i = 0;
    while (i < out.length) {
      if ((out[i] as Piece).level >= lvl) {
        let j = i;
        while (j < out.length && (out[j] as Piece).level >= lvl) j++;
        const rev = out.slice(i, j).reverse();
        out.splice(i, j - i, ...rev);
        i = j;
      } else i++;
    }
  }
  return out;
}

const MIRROR: Record<string, string> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '<': '>',
  '>': '<',
  '«': '»',
  '»': '«',
};

/**
 * The string to hand the font engine for a piece drawn left to right. fontkit reverses
 * runs of right-to-left scripts itself (after shaping them in logical order); a
 * right-to-left piece without such letters (spaces, punctuation) is reversed and
 * mirrored here.
 */
export function drawText(p: Piece): string {
  if (p.level % 2 === 0 || RTL_SCRIPT.test(p.text)) return p.text;
  return [...p.text]
    .reverse()
    .map((c) => MIRROR[c] ?? c)
    .join('');
}

/**
 * Lays out a paragraph: fonts per character, bidi levels, greedy line breaking at spaces
 * (and between CJK characters), then each line in visual order.
 */
export function layoutParagraph(spans: Span[], width: number, measure: Measure, opts: { preserve?: boolean } = {}): Line[] {
  const lineGap = 1.45;
  const chars = charsOf(spans);
  if (!chars.length) return [];
  const rtl = assignLevels(chars);
  const words = wordsOf(chars, measure).flatMap((w) => (w.width > width ? splitWide(w, width, measure) : [w]));
  const lines: Line[] = [];
  let cur: Piece[] = [];
  let used = 0;
  const push = () => {
    // Trailing spaces take no room at the end of a line.
    const last = cur[cur.length - 1];
    if (last && /\s$/.test(last.text) && !opts.preserve) {
      const trimmed = last.text.replace(/\s+$/, '');
      used -= last.width;
      last.width = trimmed ? measure(last.file, last.span.size, trimmed) : 0;
      last.text = trimmed;
      used += last.width;
    }
    const pieces = cur.filter((p) => p.text);
    const size = Math.max(...spans.map((s) => s.size), ...pieces.map((p) => p.span.size));
    lines.push({ pieces: visualOrder(pieces), width: used, height: size * lineGap, ascent: size * 1.08, rtl });
    cur = [];
    used = 0;
  };
  for (const w of words) {
    if (w.hard) {
      push();
      continue;
    }
    if (cur.length && used + w.width > width) push();
    if (!cur.length && !opts.preserve) {
      // A line never starts with the space that ended the previous one.
      const lead = w.pieces[0];
      if (lead && /^\s+$/.test(lead.text) && w.pieces.length === 1) continue;
    }
    cur.push(...w.pieces.map((p) => ({ ...p })));
    used += w.width;
  }
  if (cur.length) push();
  return lines;
}

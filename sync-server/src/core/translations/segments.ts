import type { NodeJSON } from '@quire/shared/content/index';

/** A piece of text to translate, and where its translation goes. */
export interface Segment {
  text: string;
  set(translated: string): void;
}

/**
 * What is never sent for translation inside a text: `{{ expressions }}` (variables and
 * adaptive content) and URLs. They are cut out and kept verbatim around the translated parts.
 */
const PROTECTED = /\{\{[\s\S]*?\}\}|\bhttps?:\/\/[^\s<>()]+/g;
const HAS_LETTER = /\p{L}/u;

/** Attributes that hold reader-facing text; other attributes (URLs, ids, languages) are left alone. */
const TEXT_ATTRS: Record<string, string[]> = {
  image: ['alt', 'caption'],
  inlineImage: ['alt', 'title'],
  file: ['caption'],
  embed: ['caption'],
  tab: ['title'],
  contentRef: ['title'],
};

/** Nodes whose whole content stays as written. */
const VERBATIM = new Set(['codeBlock']);

/**
 * Splits a string into protected and translatable parts; a segment per translatable part
 * that has letters, with its surrounding whitespace kept out of it (providers trim).
 */
export function textSegments(value: string, write: (v: string) => void): Segment[] {
  const parts: { text: string; translate: boolean }[] = [];
  let last = 0;
  for (const m of value.matchAll(PROTECTED)) {
    if (m.index > last) parts.push({ text: value.slice(last, m.index), translate: true });
    parts.push({ text: m[0], translate: false });
    last = m.index + m[0].length;
  }
  if (last < value.length) parts.push({ text: value.slice(last), translate: true });
  const segments: Segment[] = [];
  for (const part of parts) {
    if (!part.translate || !HAS_LETTER.test(part.text)) continue;
    const lead = /^\s*/.exec(part.text)?.[0] ?? '';
    const trail = /\s*$/.exec(part.text)?.[0] ?? '';
    segments.push({
      text: part.text.trim(),
      set(translated) {
        part.text = `${lead}${translated.trim()}${trail}`;
        write(parts.map((p) => p.text).join(''));
      },
    });
  }
  return segments;
}

/**
 * The translatable text of a body, which it changes in place as translations are set:
 * text nodes (not code: neither code blocks nor `code` marks) and reader-facing attributes.
 * Structure, marks, link targets, code and expressions are never touched.
 */
export function bodySegments(body: NodeJSON): Segment[] {
  const out: Segment[] = [];
  const walk = (node: NodeJSON, depth: number): void => {
    if (depth > 128 || (node.type && VERBATIM.has(node.type))) return;
    if (node.type === 'text') {
      if (node.text && !node.marks?.some((m) => m.type === 'code')) {
        out.push(
          ...textSegments(node.text, (v) => {
            node.text = v;
          }),
        );
      }
      return;
    }
    for (const attr of TEXT_ATTRS[node.type ?? ''] ?? []) {
      const v = node.attrs?.[attr];
      if (typeof v === 'string' && v) {
        out.push(
          ...textSegments(v, (t) => {
            (node.attrs as Record<string, unknown>)[attr] = t;
          }),
        );
      }
    }
    for (const child of node.content ?? []) walk(child, depth + 1);
  };
  walk(body, 0);
  return out;
}

export function countWords(texts: string[]): number {
  return texts.reduce((n, t) => n + (t.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0), 0);
}

/** Batches for a provider: bounded in count and size, so one request never grows huge. */
export function batches(segments: Segment[], maxCount = 100, maxChars = 10_000): Segment[][] {
  const out: Segment[][] = [];
  let cur: Segment[] = [];
  let size = 0;
  for (const s of segments) {
    if (cur.length && (cur.length >= maxCount || size + s.text.length > maxChars)) {
      out.push(cur);
      cur = [];
      size = 0;
    }
    cur.push(s);
    size += s.text.length;
  }
  if (cur.length) out.push(cur);
  return out;
}

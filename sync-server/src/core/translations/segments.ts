import type { NodeJSON } from '@quire/shared/content/index';
import type { ElementContent } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';

type Mark = NonNullable<NodeJSON['marks']>[number];

/**
 * A piece sent for translation and where its translation goes. `text` is an HTML fragment
 * (providers are asked for `format: "html"`): a whole block with its inline marks, so the
 * engine sees whole sentences; `plain` is its text, for word counts.
 */
export interface Segment {
  text: string;
  plain: string;
  set(translated: string): void;
}

/**
 * What is never sent for translation inside a text: `{{ expressions }}` (variables and
 * adaptive content) and URLs. They travel as empty placeholders and come back verbatim.
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
  update: ['title'],
};

/** Nodes whose whole content stays as written. */
const VERBATIM = new Set(['codeBlock', 'math', 'htmlBlock', 'openapiOperation', 'reusableContent']);

/** Marks as HTML tags (link apart: it carries an index back to its attributes). */
const TAGS: Record<string, string> = { bold: 'b', italic: 'i', strike: 's' };
const MARK_OF: Record<string, string> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  s: 'strike',
  del: 'strike',
  strike: 'strike',
};
const MARK_ORDER = ['link', 'bold', 'italic', 'strike', 'code'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const sameMark = (a: Mark, b: Mark) => a.type === b.type && JSON.stringify(a.attrs ?? null) === JSON.stringify(b.attrs ?? null);

interface Encoded {
  html: string;
  plain: string;
  /** Inline nodes that are not translated (code, expressions, URLs, images, breaks), by placeholder index. */
  atoms: NodeJSON[];
  links: Mark[];
}

/**
 * Inline content as one HTML fragment: marks become `<b>`, `<i>`, `<s>`, links `<a
 * href="#qN">` (the real target stays here), and anything that must come back untouched an
 * empty `<span data-q="N"></span>`.
 */
function encodeInline(nodes: NodeJSON[]): Encoded {
  const atoms: NodeJSON[] = [];
  const links: Mark[] = [];
  let html = '';
  let plain = '';
  const open: Mark[] = [];
  const closeTo = (depth: number) => {
    while (open.length > depth) {
      const m = open.pop() as Mark;
      html += m.type === 'link' ? '</a>' : `</${TAGS[m.type]}>`;
    }
  };
  const atom = (node: NodeJSON) => {
    atoms.push(node);
    html += `<span data-q="${atoms.length - 1}"></span>`;
  };
  for (const node of nodes) {
    const marks = (node.marks ?? [])
      .filter((m) => m.type === 'link' || TAGS[m.type])
      .sort((a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type));
    let keep = 0;
    while (keep < open.length && keep < marks.length && sameMark(open[keep] as Mark, marks[keep] as Mark)) keep++;
    closeTo(keep);
    for (const m of marks.slice(keep)) {
      if (m.type === 'link') {
        links.push(m);
        html += `<a href="#q${links.length - 1}">`;
      } else html += `<${TAGS[m.type]}>`;
      open.push(m);
    }
    if (node.type !== 'text' || !node.text || node.marks?.some((m) => m.type === 'code')) {
      // A code span keeps its marks (a link around it included) from the atom itself.
      atom(node);
      continue;
    }
    let last = 0;
    for (const m of node.text.matchAll(PROTECTED)) {
      if (m.index > last) {
        html += esc(node.text.slice(last, m.index));
        plain += node.text.slice(last, m.index);
      }
      atom({ ...node, text: m[0] });
      last = m.index + m[0].length;
    }
    if (last < node.text.length) {
      html += esc(node.text.slice(last));
      plain += node.text.slice(last);
    }
  }
  closeTo(0);
  return { html, plain, atoms, links };
}

const parser = unified().use(rehypeParse, { fragment: true });

/**
 * A provider's HTML back into inline nodes: tags become marks again, `#qN` links take
 * their target back, placeholders their node. A placeholder the provider lost is put back
 * at the end, so no variable, code or image ever disappears.
 */
function decodeInline(html: string, enc: Encoded): NodeJSON[] {
  const out: NodeJSON[] = [];
  const used = new Set<number>();
  const walk = (nodes: ElementContent[], marks: Mark[]) => {
    for (const n of nodes) {
      if (n.type === 'text') {
        if (n.value) out.push({ type: 'text', text: n.value, ...(marks.length ? { marks } : {}) });
        continue;
      }
      if (n.type !== 'element') continue;
      const q = n.properties?.dataQ;
      if (q !== undefined && enc.atoms[Number(q)] && !used.has(Number(q))) {
        used.add(Number(q));
        // The node itself, not a copy: its own attributes (an image's alt) are translated after the block.
        out.push(enc.atoms[Number(q)] as NodeJSON);
        continue;
      }
      const tag = n.tagName;
      if (tag === 'br') {
        out.push({ type: 'hardBreak' });
        continue;
      }
      const href = typeof n.properties?.href === 'string' ? /^#q(\d+)$/.exec(n.properties.href) : null;
      const link = href ? enc.links[Number(href[1])] : undefined;
      const mark: Mark | undefined = link ?? (MARK_OF[tag] ? { type: MARK_OF[tag] as string } : undefined);
      const next =
        mark && !marks.some((m) => m.type === mark.type)
          ? [...marks, mark].sort((a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type))
          : marks;
      walk(n.children, next);
    }
  };
  walk(parser.parse(html).children as ElementContent[], []);
  enc.atoms.forEach((a, i) => {
    if (!used.has(i)) out.push(a);
  });
  return out;
}

/** Adjacent text with the same marks is one text node, as the schema writes it. */
function mergeText(out: NodeJSON[]): NodeJSON[] {
  const merged: NodeJSON[] = [];
  for (const n of out) {
    const prev = merged[merged.length - 1];
    if (
      prev?.type === 'text' &&
      n.type === 'text' &&
      JSON.stringify(prev.marks ?? []) === JSON.stringify(n.marks ?? []) &&
      !n.marks?.some((m) => m.type === 'code')
    )
      prev.text = (prev.text ?? '') + (n.text ?? '');
    else merged.push(n.type === 'text' ? { ...n } : n);
  }
  return merged;
}

/** The whitespace around a string stays out of what is sent (providers trim it). */
function trimmed(value: string): { lead: string; core: string; trail: string } {
  const lead = /^\s*/.exec(value)?.[0] ?? '';
  const core = value.slice(lead.length);
  const trail = /\s*$/.exec(core)?.[0] ?? '';
  return { lead, core: core.slice(0, core.length - trail.length), trail };
}

/** A plain string (a title, a caption) as one segment, its expressions and URLs kept verbatim. */
export function textSegments(value: string, write: (v: string) => void): Segment[] {
  const { lead, core, trail } = trimmed(value);
  const enc = encodeInline([{ type: 'text', text: core }]);
  if (!HAS_LETTER.test(enc.plain)) return [];
  return [
    {
      text: enc.html,
      plain: enc.plain,
      set(translated) {
        const text = mergeText(decodeInline(translated.trim(), enc))
          .map((n) => n.text ?? '')
          .join('');
        write(`${lead}${text}${trail}`);
      },
    },
  ];
}

const isInline = (n: NodeJSON) =>
  n.type === 'text' || n.type === 'hardBreak' || n.type === 'inlineImage' || n.type === 'htmlInline' || n.type === 'mathInline';

/**
 * The translatable text of a body, which it changes in place as translations are set:
 * each block of inline content (a paragraph, a heading, a cell's paragraph) as one
 * segment with its marks, and reader-facing attributes. Structure, link targets, code and
 * expressions are never sent.
 */
export function bodySegments(body: NodeJSON): Segment[] {
  const out: Segment[] = [];
  const walk = (node: NodeJSON, depth: number): void => {
    if (depth > 128 || (node.type && VERBATIM.has(node.type))) return;
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
    const content = node.content ?? [];
    if (content.length && content.every(isInline)) {
      const first = content[0] as NodeJSON;
      const last = content[content.length - 1] as NodeJSON;
      // Leading and trailing spaces of the block stay where they are.
      const lead = first.type === 'text' && !first.marks?.length ? trimmed(first.text ?? '').lead : '';
      const trail = last.type === 'text' && !last.marks?.length ? trimmed(last.text ?? '').trail : '';
      const enc = encodeInline(content);
      if (HAS_LETTER.test(enc.plain)) {
        out.push({
          text: enc.html.slice(lead.length, enc.html.length - trail.length || undefined),
          plain: enc.plain,
          set(translated) {
            const nodes = decodeInline(translated.trim(), enc);
            if (lead) nodes.unshift({ type: 'text', text: lead });
            if (trail) nodes.push({ type: 'text', text: trail });
            node.content = mergeText(nodes);
          },
        });
      }
      for (const child of content) walk(child, depth + 1);
      return;
    }
    for (const child of content) walk(child, depth + 1);
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

import type { Mark, Node as PMNode } from 'prosemirror-model';
import { rewriteHtmlTargets } from '../htmlTargets';
import type { TargetKind } from '../targets';
import { codeSpan, escapeDestination, escapeLineStarts, escapeText, formatTitle, keepEdgeWhitespace } from './escape';

/** How inline content is being written. */
export interface InlineContext {
  /** Inside a table cell: pipes inside code spans are escaped too, and block markers mean nothing. */
  inTable: boolean;
  /** In a heading or a table cell, which end at the line's end: line breaks are written `<br>`. */
  singleLine: boolean;
  resolveTarget: (target: string, kind: TargetKind) => string;
}

interface Item {
  node: PMNode;
  /** The text of a text node, after leading/trailing whitespace has been split off. */
  text: string | null;
  marks: readonly Mark[];
}

/** Marks that markdown cannot open or close next to whitespace (`** bold**` is not bold). */
const FLANKING = new Set(['bold', 'italic', 'strike']);
const WORD = /[\p{L}\p{N}]/u;
const AUTOLINK = /^[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\p{Cc}]*$/u;

/**
 * Writes the inline content of a text block. Marks nest in schema order (link, bold,
 * italic, strike, code), a run of nodes sharing a mark is wrapped once, and whitespace at
 * the edge of emphasis moves outside it so markdown reads the emphasis back.
 */
export function inlineMarkdown(parent: PMNode, context: InlineContext): string {
  const items: Item[] = [];
  parent.forEach((node) => {
    items.push({ node, text: node.isText ? (node.text ?? '') : null, marks: node.marks });
  });
  let rendered = renderItems(moveWhitespaceOutOfEmphasis(items), [], context);
  // a backslash break at the very end of a paragraph would read as a literal backslash
  if (rendered.endsWith('\\\n')) rendered = `${rendered.slice(0, -2)}<br>`;
  // alone on its line, `<br>` would be an HTML block; a paragraph of nothing but a break shows nothing anyway
  if (rendered === '<br>') return '';
  rendered = keepEdgeWhitespace(rendered);
  return context.inTable ? rendered : escapeLineStarts(rendered);
}

function moveWhitespaceOutOfEmphasis(items: readonly Item[]): Item[] {
  const out: Item[] = [];
  items.forEach((item, i) => {
    const inCode = item.marks.some((mark) => mark.type.name === 'code');
    // a code span's backticks are punctuation, so emphasis around it may hold spaces inside
    if (item.text === null || inCode || !item.marks.some((mark) => FLANKING.has(mark.type.name))) {
      out.push(item);
      return;
    }
    const [, lead = '', core = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(item.text) ?? [];
    const keep = (...neighbours: (Item | undefined)[]) =>
      item.marks.filter((mark) => !FLANKING.has(mark.type.name) || neighbours.every((n) => n !== undefined && mark.isInSet(n.marks)));
    // whitespace alone keeps an emphasis only when the emphasis goes on at both sides
    if (lead) out.push({ ...item, text: lead, marks: core ? keep(items[i - 1]) : keep(items[i - 1], items[i + 1]) });
    if (core) out.push({ ...item, text: core });
    if (trail) out.push({ ...item, text: trail, marks: keep(items[i + 1]) });
  });
  return out;
}

function renderItems(items: readonly Item[], applied: readonly Mark[], context: InlineContext): string {
  let out = '';
  let i = 0;
  while (i < items.length) {
    const item = items[i] as Item;
    const mark = item.marks.find((candidate) => !candidate.isInSet(applied));
    if (!mark) {
      out = append(out, renderLeaf(item, context, items[i + 1]));
      i++;
      continue;
    }
    // a code span holds plain text only, so it takes just the neighbours with no other mark left to open
    const joins = (next: Item): boolean =>
      mark.type.name === 'code'
        ? mark.isInSet(next.marks) && next.marks.every((other) => other.isInSet(applied) || other.eq(mark))
        : mark.isInSet(next.marks);
    let end = i + 1;
    while (end < items.length && joins(items[end] as Item)) end++;
    const group = items.slice(i, end);
    out = append(out, renderMark(mark, group, [...applied, mark], context, out, items[end]));
    i = end;
  }
  return out;
}

/** Joins rendered pieces; a text `!` right before a link would turn the link into an image. */
function append(out: string, piece: string): string {
  if (piece.startsWith('[') && out.endsWith('!')) return `${out.slice(0, -1)}\\!${piece}`;
  return out + piece;
}

function renderMark(
  mark: Mark,
  group: readonly Item[],
  applied: readonly Mark[],
  context: InlineContext,
  before: string,
  after: Item | undefined,
): string {
  const name = mark.type.name;
  if (name === 'code') return codeSpan(group.map((item) => item.text ?? '').join(''), context.inTable);
  if (name === 'link') return renderLink(mark, group, applied, context);
  const inner = renderItems(group, applied, context);
  if (inner === '') return '';
  const outer = applied.slice(0, -1);
  // what follows the closing delimiter: text of a plain neighbour, else another delimiter (punctuation)
  const next = after && after.text !== null && after.marks.every((m) => m.isInSet(outer)) ? after.text.slice(0, 1) : '';
  const previous = before.slice(-1);
  // markdown only opens emphasis before punctuation when it follows a space or punctuation, and only
  // closes it after punctuation when a space or punctuation follows; elsewhere the HTML form is kept
  if ((PUNCTUATION.test(inner.slice(0, 1)) && isWordChar(previous)) || (PUNCTUATION.test(inner.slice(-1)) && isWordChar(next))) {
    const tag = HTML_TAGS[name] as string;
    return `<${tag}>${inner}</${tag}>`;
  }
  if (name === 'bold') return `**${inner}**`;
  if (name === 'strike') return `~~${inner}~~`;
  // `_` cannot open or close inside a word; `*` can
  const delimiter = WORD.test(previous) || WORD.test(next) ? '*' : '_';
  return `${delimiter}${inner}${delimiter}`;
}

/** HTML elements written for emphasis that markdown delimiters cannot express at that spot. */
const HTML_TAGS: Record<string, string> = { bold: 'strong', italic: 'em', strike: 's' };
const PUNCTUATION = /[\p{P}\p{S}]/u;

function isWordChar(char: string): boolean {
  return char !== '' && !/\s/.test(char) && !PUNCTUATION.test(char);
}

function renderLink(mark: Mark, group: readonly Item[], applied: readonly Mark[], context: InlineContext): string {
  const href = context.resolveTarget(String(mark.attrs.href ?? ''), 'link');
  const only = group.length === 1 ? group[0] : undefined;
  if (only?.text === href && only.marks.every((m) => m.isInSet(applied)) && !mark.attrs.title && AUTOLINK.test(href)) {
    return `<${href}>`;
  }
  return `[${renderItems(group, applied, context)}](${escapeDestination(href)}${formatTitle(mark.attrs.title)})`;
}

function renderLeaf(item: Item, context: InlineContext, next: Item | undefined): string {
  if (item.text !== null) return escapeText(item.text);
  const node = item.node;
  // HTML at the start of a line could open an HTML block, so a break before it stays on the line
  if (node.type.name === 'hardBreak') return context.singleLine || next?.node.type.name === 'htmlInline' ? '<br>' : '\\\n';
  if (node.type.name === 'htmlInline') {
    const html = rewriteHtmlTargets(String(node.attrs.html ?? ''), context.resolveTarget).replace(/\s*\n\s*/g, ' ');
    return context.inTable ? html.replace(/\|/g, '&#124;') : html;
  }
  if (node.type.name === 'mathInline') return `$$${String(node.attrs.tex).replace(/\s*\n\s*/g, ' ')}$$`;
  if (node.type.name === 'inlineImage') {
    const src = context.resolveTarget(String(node.attrs.src ?? ''), 'image');
    return `![${escapeText(String(node.attrs.alt ?? ''))}](${escapeDestination(src)}${formatTitle(node.attrs.title)})`;
  }
  return '';
}

import { decodeHTMLStrict } from 'entities';
import type { MarkdownIt, StateBlock, StateInline } from 'markdown-it';

/** GitBook's `{% tag %}…{% endtag %}` blocks whose content is markdown. */
/** GitBook's API operation blocks, old and new spellings. */
const OPENAPI_TAGS = ['openapi', 'openapi-operation', 'swagger'];
const CONTAINER_TAGS = new Set(['hint', 'tabs', 'tab', 'code', 'stepper', 'step', 'columns', 'column', 'updates', 'update']);
/** Tags that stand alone or wrap a caption / link line rather than markdown blocks. */
const ATOM_TAGS = new Set(['embed', 'file', 'content-ref', 'include', ...OPENAPI_TAGS]);
/** Atoms whose end tag may come after blank lines and other tags (a swagger block's descriptions and responses). */
const LONG_ATOM_TAGS = new Set(OPENAPI_TAGS);
/** Tags that never take an end tag. */
const SINGLE_TAGS = new Set(['include']);

/** A parsed `{% name key="value" %}` or `{% endname %}` line. */
export interface LiquidTag {
  name: string;
  end: boolean;
  attrs: Record<string, string>;
  /** The first quoted value without a name (`{% include "a.md" %}`), or null. */
  argument: string | null;
}

/** Meta of a `gitbook_open` / `gitbook_close` token. */
export type ContainerMeta = {
  name: string;
  attrs: Record<string, string>;
};

/** Meta of a `gitbook_atom` token: the tag, and the lines between it and its end tag. */
export type AtomMeta = ContainerMeta & {
  argument: string | null;
  inner: string;
  source: string;
};

/** Meta of a `gitbook_figure` token. */
export type FigureMeta = {
  src: string;
  alt: string;
  width: string | null;
  srcDark: string | null;
  caption: string;
  source: string;
};

const TAG_LINE = /^\{%-?\s*([a-z][a-z0-9-]*)((?:\s(?:[^"'%]|"[^"]*"|'[^']*')*?)?)\s*-?%\}$/;
const TAG_ATTR = /([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))/g;

export function parseLiquidTag(line: string): LiquidTag | null {
  const match = TAG_LINE.exec(line.trim());
  if (!match) return null;
  const raw = match[1] as string;
  const end = raw.startsWith('end');
  const attrs: Record<string, string> = {};
  for (const attr of (match[2] ?? '').matchAll(TAG_ATTR)) {
    attrs[attr[1] as string] = decodeHTMLStrict(attr[2] ?? attr[3] ?? attr[4] ?? '');
  }
  const positional = /^\s*(?:"([^"]*)"|'([^']*)')/.exec(match[2] ?? '');
  const argument = positional ? decodeHTMLStrict(positional[1] ?? positional[2] ?? '') : null;
  return { name: end ? raw.slice(3) : raw, end, attrs, argument };
}

const INTERRUPTS = { alt: ['paragraph', 'reference', 'blockquote', 'list'] };

/** markdown-it plugin: GitBook's liquid blocks, `<details>` and `<figure>` become tokens instead of HTML or text. */
export function gitbookBlocks(md: MarkdownIt): void {
  md.block.ruler.before('fence', 'gitbook_liquid', liquidBlock, INTERRUPTS);
  md.block.ruler.before('html_block', 'gitbook_details', detailsBlock, INTERRUPTS);
  md.block.ruler.before('html_block', 'gitbook_figure', figureBlock, INTERRUPTS);
  md.block.ruler.before('fence', 'gitbook_math', mathBlock, INTERRUPTS);
  md.inline.ruler.before('escape', 'gitbook_math_inline', mathInline);
}

function lineText(state: StateBlock, line: number): string {
  return state.src.slice((state.bMarks[line] as number) + (state.tShift[line] as number), state.eMarks[line]).trimEnd();
}

function isIndentedCode(state: StateBlock, line: number): boolean {
  return (state.sCount[line] as number) - state.blkIndent >= 4;
}

/**
 * The line of the end tag closing the block opened on `startLine`, counting nested
 * blocks of the same kind; null when the block is never closed inside its parent.
 */
function findClosingLine(
  state: StateBlock,
  startLine: number,
  endLine: number,
  isOpen: (text: string) => boolean,
  isClose: (text: string) => boolean,
  stopAtBlank: boolean,
): number | null {
  let depth = 0;
  // inside a fenced code block an end tag is code, as in a page documenting GitBook itself
  let fence: string | null = null;
  for (let line = startLine + 1; line < endLine; line++) {
    const text = lineText(state, line);
    if (text === '') {
      if (stopAtBlank) return null;
      continue;
    }
    if ((state.sCount[line] as number) < state.blkIndent) return null;
    const fenceMark = /^(`{3,}|~{3,})/.exec(text)?.[1];
    if (fence !== null) {
      const closes = fenceMark !== undefined && fenceMark[0] === fence[0] && fenceMark.length >= fence.length;
      if (closes && text.slice(fenceMark.length).trim() === '') fence = null;
      continue;
    }
    if (fenceMark && !(fenceMark[0] === '`' && text.slice(fenceMark.length).includes('`'))) {
      fence = fenceMark;
      continue;
    }
    if (isClose(text)) {
      if (depth === 0) return line;
      depth--;
    } else if (isOpen(text)) {
      depth++;
    }
  }
  return null;
}

function liquidBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (isIndentedCode(state, startLine)) return false;
  const open = parseLiquidTag(lineText(state, startLine));
  if (!open || open.end) return false;
  const container = CONTAINER_TAGS.has(open.name);
  if (!container && !ATOM_TAGS.has(open.name)) return unknownBlock(state, startLine, endLine, silent, open.name);
  const sameTag = (end: boolean) => (text: string) => {
    const tag = parseLiquidTag(text);
    return tag !== null && tag.name === open.name && tag.end === end;
  };
  const close = SINGLE_TAGS.has(open.name)
    ? null
    : findClosingLine(state, startLine, endLine, sameTag(false), sameTag(true), !container && !LONG_ATOM_TAGS.has(open.name));
  if (close === null && (container || open.name === 'content-ref')) return false;
  if (silent) return true;

  if (!container) {
    const last = close ?? startLine;
    const token = state.push('gitbook_atom', '', 0);
    const meta: AtomMeta = {
      name: open.name,
      attrs: open.attrs,
      argument: open.argument,
      inner: close === null ? '' : state.getLines(startLine + 1, close, state.blkIndent, false).trim(),
      source: state.getLines(startLine, last + 1, state.blkIndent, false).trim(),
    };
    token.meta = meta;
    token.block = true;
    token.map = [startLine, last + 1];
    state.line = last + 1;
    return true;
  }

  const closeLine = close as number;
  const meta: ContainerMeta = { name: open.name, attrs: open.attrs };
  tokenizeInside(state, 'gitbook', meta, startLine, startLine + 1, closeLine);
  state.line = closeLine + 1;
  return true;
}

/** Meta of a `gitbook_unknown_open` token: a block tag nothing here knows, around content that is kept. */
export type UnknownTagMeta = { name: string; source: string };

/**
 * `{% name … %}` … `{% endname %}` of a tag nothing here knows (a plugin's, a newer
 * platform's): its content is read as markdown and kept in place of the tag, so readers see
 * the content, never the tag. A tag without an end is left to read as text.
 */
function unknownBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean, name: string): boolean {
  const sameTag = (end: boolean) => (text: string) => {
    const tag = parseLiquidTag(text);
    return tag !== null && tag.name === name && tag.end === end;
  };
  const close = findClosingLine(state, startLine, endLine, sameTag(false), sameTag(true), false);
  if (close === null) return false;
  if (silent) return true;
  const meta: UnknownTagMeta = { name, source: lineText(state, startLine) };
  tokenizeInside(state, 'gitbook_unknown', meta, startLine, startLine + 1, close);
  state.line = close + 1;
  return true;
}

/** Emits `<kind>_open`, the markdown blocks of lines [from, to), and `<kind>_close`. */
function tokenizeInside(state: StateBlock, kind: string, meta: Record<string, unknown>, startLine: number, from: number, to: number): void {
  const oldParent = state.parentType;
  const oldLineMax = state.lineMax;
  // a parent type of our own: rules that look at it (lists, lazy paragraphs) treat it as a fresh container
  state.parentType = 'gitbook';
  state.lineMax = to;
  const open = state.push(`${kind}_open`, '', 1);
  open.meta = meta;
  open.block = true;
  open.map = [startLine, to + 1];
  state.md.block.tokenize(state, from, to);
  const close = state.push(`${kind}_close`, '', -1);
  close.meta = meta;
  close.block = true;
  state.parentType = oldParent;
  state.lineMax = oldLineMax;
}

/** Meta of a `gitbook_math` token. */
export type MathMeta = { tex: string };

/** `$$` alone on a line, the formula, and `$$` closing it (on its own line or ending the last one). */
function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (isIndentedCode(state, startLine)) return false;
  if (lineText(state, startLine) !== '$$') return false;
  let last = startLine + 1;
  for (; last < endLine; last++) {
    if ((state.sCount[last] as number) < state.blkIndent) return false;
    if (lineText(state, last).endsWith('$$')) break;
  }
  if (last >= endLine) return false;
  if (silent) return true;
  const inner = state.getLines(startLine + 1, last + 1, state.blkIndent, false).replace(/\s+$/, '');
  const token = state.push('gitbook_math', '', 0);
  token.meta = { tex: inner.slice(0, -2).trim() } satisfies MathMeta;
  token.block = true;
  token.map = [startLine, last + 1];
  state.line = last + 1;
  return true;
}

/** `$$formula$$` inside a paragraph. */
function mathInline(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x24 || state.src.charCodeAt(start + 1) !== 0x24) return false;
  const end = state.src.indexOf('$$', start + 2);
  if (end < 0 || state.src.slice(start + 2, end).trim() === '') return false;
  if (!silent) {
    const token = state.push('gitbook_math_inline', '', 0);
    token.content = state.src.slice(start + 2, end);
  }
  state.pos = end + 2;
  return true;
}

const DETAILS_OPEN = /^<details(?:\s+open(?:=(?:"[^"]*"|'[^']*'|\S+))?)?\s*>\s*(?:<summary>(.*?)<\/summary>)?$/i;
const DETAILS_CLOSE = /^<\/details>$/i;
const SUMMARY = /^<summary>(.*?)<\/summary>$/i;

function detailsBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (isIndentedCode(state, startLine)) return false;
  const open = DETAILS_OPEN.exec(lineText(state, startLine));
  if (!open) return false;
  const close = findClosingLine(
    state,
    startLine,
    endLine,
    (text) => /^<details[\s>]/i.test(text),
    (text) => DETAILS_CLOSE.test(text),
    false,
  );
  if (close === null) return false;
  let summary = open[1];
  let contentStart = startLine + 1;
  if (summary === undefined) {
    let line = startLine + 1;
    while (line < close && lineText(state, line) === '') line++;
    const match = line < close ? SUMMARY.exec(lineText(state, line)) : null;
    if (match) {
      summary = match[1];
      contentStart = line + 1;
    }
  }
  if (silent) return true;
  const html = summary && /<(?:img|picture|source)\b/i.test(summary) ? summary : null;
  tokenizeInside(state, 'gitbook_details', { summary: htmlText(summary ?? ''), html }, startLine, contentStart, close);
  state.line = close + 1;
  return true;
}

const FIGURE_LINES = 20;
const IMG = /<img\b([^>]*?)\/?>/i;
const SOURCE = /<source\b([^>]*?)\/?>/i;
const FIGCAPTION = /<figcaption>([\s\S]*?)<\/figcaption>/i;
const HTML_ATTR = /([A-Za-z][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
/** What a GitBook figure may hold besides the image and its caption. */
const FIGURE_SHELL =
  /^<figure>\s*(?:<picture>\s*(?:<source\b[^>]*>\s*)*<img\b[^>]*>\s*<\/picture>|<img\b[^>]*>)\s*(?:<figcaption>[\s\S]*?<\/figcaption>)?\s*<\/figure>$/i;

function figureBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (isIndentedCode(state, startLine)) return false;
  if (!/^<figure>/i.test(lineText(state, startLine))) return false;
  let last = startLine;
  while (!/<\/figure>$/i.test(lineText(state, last))) {
    last++;
    if (last >= endLine || last - startLine > FIGURE_LINES || lineText(state, last) === '') return false;
  }
  const source = state.getLines(startLine, last + 1, state.blkIndent, false).trim();
  const figure = parseFigure(source);
  if (!figure) return false;
  if (silent) return true;
  const token = state.push('gitbook_figure', '', 0);
  token.meta = figure;
  token.block = true;
  token.map = [startLine, last + 1];
  state.line = last + 1;
  return true;
}

function parseFigure(source: string): FigureMeta | null {
  if (!FIGURE_SHELL.test(source)) return null;
  const img = htmlAttributes(IMG.exec(source)?.[1] ?? '');
  if (!img.src) return null;
  const sourceTag = SOURCE.exec(source);
  const srcDark = sourceTag ? (htmlAttributes(sourceTag[1] ?? '').srcset ?? null) : null;
  return {
    src: img.src,
    alt: img.alt ?? '',
    width: img.width ?? null,
    srcDark: srcDark || null,
    caption: htmlText(FIGCAPTION.exec(source)?.[1] ?? ''),
    source,
  };
}

/** Attributes of an HTML start tag, names lower-cased and entities decoded. */
export function htmlAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const match of source.matchAll(HTML_ATTR)) {
    attrs[(match[1] as string).toLowerCase()] = decodeHTMLStrict(match[2] ?? match[3] ?? '');
  }
  return attrs;
}

/** Text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed. */
export function htmlText(html: string): string {
  return decodeHTMLStrict(html.replace(/<\/?(?:p|br|div)\b[^>]*>/gi, ' ').replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

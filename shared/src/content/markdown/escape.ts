import { decodeHTMLStrict } from 'entities';

/** Characters that markdown reads as syntax wherever they stand in text. */
const ALWAYS = new Set(['\\', '`', '*', '[', ']', '~', '|']);
const WORD = /[\p{L}\p{N}]/u;
const TAG_START = /[A-Za-z/!?]/;
const ENTITY = /&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/y;

/** Whether an entity reference (`&amp;`, `&#32;`) starts at `index`, which markdown and HTML would decode. */
function entityAt(text: string, index: number): boolean {
  ENTITY.lastIndex = index;
  return ENTITY.test(text);
}

/**
 * Escapes text so markdown reads it back as the same text: emphasis and link syntax,
 * HTML tags (so text like `<script>` stays text), entities and GitBook's `{%` tags.
 * An `_` inside a word is left alone, as in `snake_case`, since it cannot open emphasis.
 */
export function escapeText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const next = text[i + 1] ?? '';
    const prev = text[i - 1] ?? '';
    if (ALWAYS.has(c)) out += `\\${c}`;
    else if (c === '_') out += WORD.test(prev) && WORD.test(next) ? '_' : '\\_';
    else if (c === '<') out += TAG_START.test(next) ? '\\<' : '<';
    else if (c === '&') out += entityAt(text, i) ? '\\&' : '&';
    else if (c === '%') out += prev === '{' ? '\\%' : '%';
    // `$$` opens a formula
    else if (c === '$') out += prev === '$' || next === '$' ? '\\$' : '$';
    else if (c === '\n' || c === '\r') out += ' ';
    else out += c;
  }
  return out;
}

const TEXT_ESCAPE = /\\([!-/:-@[-`{-~])|&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g;

/**
 * Plain text (a title in `SUMMARY.md`) as markdown reads it: backslash escapes of ASCII
 * punctuation and entity references (`&#x26;`, as git sync writes `&`) decoded.
 */
export function unescapeText(text: string): string {
  return text.replace(TEXT_ESCAPE, (match, escaped: string | undefined) => escaped ?? decodeHTMLStrict(match));
}

const LINE_START_RULES: [RegExp, string][] = [
  [/^([-+])(?=[ \t]|$)/, '\\$1'],
  [/^(#{1,6})(?=[ \t]|$)/, '\\$1'],
  [/^>/, '\\>'],
  [/^(\d{1,9})([.)])(?=[ \t]|$)/, '$1\\$2'],
  // setext underlines and thematic breaks
  [/^(=+|-+)([ \t]*)$/, '\\$1$2'],
  [/^-(?=[ \t]*-[ \t]*-)/, '\\-'],
];

/**
 * Writes whitespace at the start or end of each line as a character reference: markdown
 * drops it there (or, four spaces deep, reads a code block).
 */
export function keepEdgeWhitespace(inline: string): string {
  return inline
    .split('\n')
    .map((line) => line.replace(/^[ \t]/, whitespaceReference).replace(/(?<!\\)[ \t]$/, whitespaceReference))
    .join('\n');
}

function whitespaceReference(char: string): string {
  return char === '\t' ? '&#9;' : '&#32;';
}

/** Escapes what markdown reads as a block marker at the start of each line of inline content. */
export function escapeLineStarts(inline: string): string {
  return inline
    .split('\n')
    .map((line) => {
      for (const [pattern, replacement] of LINE_START_RULES) {
        if (pattern.test(line)) return line.replace(pattern, replacement);
      }
      return line;
    })
    .join('\n');
}

/** Escapes a value written inside double quotes of an HTML attribute (`<img alt="…">`). */
export function escapeAttribute(value: string): string {
  return escapeHtmlText(value).replace(/"/g, '&quot;');
}

/** Escapes a value written inside double quotes of a liquid tag (`{% tab title="…" %}`), as little as GitBook does. */
export function escapeLiquidAttribute(value: string): string {
  return escapeHtmlEntities(value).replace(/"/g, '&quot;');
}

/** Escapes text written inside an HTML element (`<summary>`, `<figcaption>`). */
export function escapeHtmlText(value: string): string {
  return escapeHtmlEntities(value).replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeHtmlEntities(value: string): string {
  return value.replace(/&/g, (amp, offset: number) => (entityAt(value, offset) ? '&amp;' : amp));
}

/** A link or image destination, in angle brackets when it holds spaces or unbalanced parentheses. */
export function escapeDestination(href: string): string {
  if (href === '') return '<>';
  let depth = 0;
  let balanced = true;
  for (const c of href) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) balanced = false;
  }
  const doubled = href.replace(/\\/g, '\\\\');
  const escaped = doubled.replace(/&/g, (amp, offset: number) => (entityAt(doubled, offset) ? '\\&' : amp));
  if (!balanced || depth !== 0 || /[\s<>]/.test(href)) return `<${escaped.replace(/[<>]/g, '\\$&').replace(/[\r\n]/g, ' ')}>`;
  return escaped;
}

/** The ` "title"` part of a link or image, or ''. */
export function formatTitle(title: unknown): string {
  return typeof title === 'string' && title !== '' ? ` "${title.replace(/["\\]/g, '\\$&')}"` : '';
}

/** A code span holding `text` exactly, with a fence longer than any backtick run inside. */
export function codeSpan(text: string, inTable: boolean): string {
  const content = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...Array.from(content.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  // markdown strips one space from each side of a span that has both and is not all spaces
  const pad =
    content.startsWith('`') || content.endsWith('`') || (content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '');
  const body = inTable ? content.replace(/\|/g, '\\|') : content;
  return pad ? `${fence} ${body} ${fence}` : `${fence}${body}${fence}`;
}

import type { Token } from 'markdown-it';
import type { MarkJSON, NodeJSON } from '../json';
import { markdownIt } from './markdownIt';

const LINE_BREAK_TAG = /^<br\s*\/?>$/i;
/** Inline HTML formatting read as marks: the serializer writes it where `**`/`_`/`~~` cannot open or close. */
const FORMAT_TAG = /^<(\/?)(strong|b|em|i|s|del|strike)>$/i;
const FORMAT_MARKS: Record<string, string> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  s: 'strike',
  del: 'strike',
  strike: 'strike',
};

const VOID_ELEMENTS = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const OPEN_TAG = /^<([A-Za-z][A-Za-z0-9-]*)\b[^>]*?(\/?)>$/;

/**
 * Inline HTML from an opening tag to its matching end tag (`<a class="button">Go</a>`,
 * `<mark>…</mark>`, `<picture>…</picture>`) as one piece of HTML, so a renderer sanitizes
 * the element whole; the text between is rendered the way markdown renders it.
 */
function inlineHtmlSpan(tokens: readonly Token[], start: number): { html: string; end: number } {
  const first = tokens[start] as Token;
  const open = OPEN_TAG.exec(first.content);
  const name = open?.[1]?.toLowerCase();
  if (!open || !name || open[2] || VOID_ELEMENTS.has(name)) return { html: first.content, end: start };
  let depth = 0;
  for (let i = start + 1; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.type !== 'html_inline') continue;
    const tag = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)\b[^>]*?(\/?)>$/.exec(token.content);
    if (!tag || (tag[2] as string).toLowerCase() !== name || tag[3]) continue;
    if (!tag[1]) depth++;
    else if (depth > 0) depth--;
    else {
      const inner = markdownIt.renderer.renderInline(tokens.slice(start + 1, i) as Token[], markdownIt.options, {});
      return { html: `${first.content}${inner}${token.content}`, end: i };
    }
  }
  return { html: first.content, end: start };
}

/** Inline tokens as text nodes with marks, math, images and inline HTML. */
export function inlineNodes(tokens: readonly Token[]): NodeJSON[] {
  const out: NodeJSON[] = [];
  const marks: MarkJSON[] = [];
  const addText = (text: string, extra?: MarkJSON): void => {
    if (!text) return;
    const nodeMarks = extra ? [...marks, extra] : [...marks];
    const last = out[out.length - 1];
    if (last?.type === 'text' && JSON.stringify(last.marks ?? []) === JSON.stringify(nodeMarks)) {
      last.text += text;
    } else {
      out.push(nodeMarks.length > 0 ? { type: 'text', text, marks: nodeMarks } : { type: 'text', text });
    }
  };
  const removeMark = (type: string): void => {
    const index = marks.findLastIndex((mark) => mark.type === type);
    if (index >= 0) marks.splice(index, 1);
  };
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as Token;
    switch (token.type) {
      case 'gitbook_math_inline':
        out.push({ type: 'mathInline', attrs: { tex: token.content } });
        break;
      case 'text':
      case 'text_special':
        addText(token.content);
        break;
      case 'softbreak':
        addText(' ');
        break;
      case 'hardbreak':
        out.push({ type: 'hardBreak' });
        break;
      case 'code_inline':
        addText(token.content, { type: 'code' });
        break;
      case 'strong_open':
        marks.push({ type: 'bold' });
        break;
      case 'strong_close':
        removeMark('bold');
        break;
      case 'em_open':
        marks.push({ type: 'italic' });
        break;
      case 'em_close':
        removeMark('italic');
        break;
      case 's_open':
        marks.push({ type: 'strike' });
        break;
      case 's_close':
        removeMark('strike');
        break;
      case 'link_open':
        marks.push({ type: 'link', attrs: { href: token.attrGet('href') ?? '', title: token.attrGet('title') || null } });
        break;
      case 'link_close':
        removeMark('link');
        break;
      case 'image':
        out.push({
          type: 'inlineImage',
          attrs: { src: token.attrGet('src') ?? '', alt: plainText(token.children ?? []) || null, title: token.attrGet('title') || null },
        });
        break;
      case 'html_inline': {
        const format = FORMAT_TAG.exec(token.content);
        const markType = format ? FORMAT_MARKS[(format[2] as string).toLowerCase()] : undefined;
        if (LINE_BREAK_TAG.test(token.content)) out.push({ type: 'hardBreak' });
        else if (format && markType && format[1]) removeMark(markType);
        else if (markType) marks.push({ type: markType });
        else {
          const span = inlineHtmlSpan(tokens, index);
          out.push({ type: 'htmlInline', attrs: { html: span.html } });
          index = span.end;
        }
        break;
      }
      default:
        addText(token.content);
    }
  }
  return out;
}

function plainText(tokens: readonly Token[]): string {
  return tokens.map((token) => (token.children ? plainText(token.children) : token.type === 'softbreak' ? ' ' : token.content)).join('');
}

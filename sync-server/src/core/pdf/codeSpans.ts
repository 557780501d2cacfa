import type { ElementContent } from 'hast';
import { highlightCode } from '../content/highlight';
import type { Span } from './inline';
import { COLORS } from './writer';

/** The published sites' light code colors (GitHub's), per highlight.js class. */
const CLASS_COLORS: Record<string, string> = {
  'hljs-keyword': '#cf222e',
  'hljs-selector-tag': '#cf222e',
  'hljs-built_in': '#cf222e',
  'hljs-doctag': '#cf222e',
  'hljs-string': '#0a3069',
  'hljs-regexp': '#0a3069',
  'hljs-addition': '#0a3069',
  'hljs-title': '#8250df',
  'hljs-section': '#8250df',
  'hljs-number': '#0550ae',
  'hljs-literal': '#0550ae',
  'hljs-attr': '#0550ae',
  'hljs-attribute': '#0550ae',
  'hljs-variable': '#0550ae',
  'hljs-template-variable': '#0550ae',
  'hljs-meta': '#0550ae',
  'hljs-comment': '#6e7781',
  'hljs-quote': '#6e7781',
  'hljs-type': '#953800',
  'hljs-params': '#953800',
  'hljs-name': '#116329',
  'hljs-tag': '#116329',
  'hljs-deletion': '#116329',
};

function colorOf(className: unknown, inherited: string): string {
  const classes = Array.isArray(className) ? className.map(String) : [];
  for (const c of classes) if (CLASS_COLORS[c]) return CLASS_COLORS[c];
  return inherited;
}

/** A code block's text as monospaced spans in the colors the site shows it in; one span per run of one color. */
export function codeSpans(code: string, language: string | null | undefined, size: number): Span[] {
  const spans: Span[] = [];
  const push = (value: string, color: string) => {
    const last = spans[spans.length - 1];
    if (last && last.color === color) last.text += value;
    else spans.push({ text: value, role: 'mono', size, color });
  };
  const walk = (nodes: ElementContent[], color: string) => {
    for (const n of nodes) {
      if (n.type === 'text') push(n.value, color);
      else if (n.type === 'element') walk(n.children, colorOf(n.properties?.className, color));
    }
  };
  walk(highlightCode(code, language), COLORS.text);
  return spans;
}

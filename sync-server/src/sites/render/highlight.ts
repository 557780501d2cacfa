import type { Element, ElementContent } from 'hast';
import { highlightCode } from '../../core/content/highlight';

/** The code as highlighted nodes (readers get colored code without a script), split into one `span.line` per line. */
export function highlightLines(code: string, language: string | undefined): Element[] {
  return splitLines(highlightCode(code, language));
}

/** Splits highlighted nodes at newlines, re-opening the spans a line break falls inside. */
function splitLines(nodes: ElementContent[]): Element[] {
  const lines: ElementContent[][] = [[]];
  const walk = (list: ElementContent[], wrap: (c: ElementContent[]) => ElementContent[]) => {
    for (const n of list) {
      if (n.type === 'text') {
        const parts = n.value.split('\n');
        parts.forEach((part, i) => {
          if (i > 0) lines.push([]);
          if (part) (lines[lines.length - 1] as ElementContent[]).push(...wrap([{ type: 'text', value: part }]));
        });
      } else if (n.type === 'element') {
        walk(n.children, (c) => wrap([{ ...n, children: c }]));
      }
    }
  };
  walk(nodes, (c) => c);
  // A trailing newline does not make an empty last line.
  if (lines.length > 1 && (lines[lines.length - 1] as ElementContent[]).length === 0) lines.pop();
  return lines.map((children) => ({ type: 'element', tagName: 'span', properties: { className: ['line'] }, children }));
}

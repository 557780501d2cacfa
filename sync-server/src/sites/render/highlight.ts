import type { Element, ElementContent } from 'hast';
import { common, createLowlight } from 'lowlight';

/**
 * Syntax highlighting on the server (highlight.js grammars through lowlight): readers get
 * colored code without a script, as `hljs-*` classes the stylesheet colors per theme.
 */
const lowlight = createLowlight(common);

const ALIASES: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  js: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  yml: 'yaml',
  py: 'python',
  rb: 'ruby',
  html: 'xml',
  'c#': 'csharp',
  cs: 'csharp',
  golang: 'go',
  kt: 'kotlin',
  md: 'markdown',
  jsonc: 'json',
  http: 'http',
};

/** Code longer than this is shown plain: highlighting it would hold up the page. */
const MAX_HIGHLIGHT = 200_000;

/** The code as highlighted nodes, split into one `span.line` per line. */
export function highlightLines(code: string, language: string | undefined): Element[] {
  const lang = language ? (ALIASES[language.toLowerCase()] ?? language.toLowerCase()) : undefined;
  let nodes: ElementContent[] = [{ type: 'text', value: code }];
  if (lang && code.length <= MAX_HIGHLIGHT && lowlight.registered(lang)) {
    nodes = lowlight.highlight(lang, code).children as ElementContent[];
  }
  return splitLines(nodes);
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

import type { ElementContent } from 'hast';
import { common, createLowlight } from 'lowlight';

/**
 * Syntax highlighting (highlight.js grammars through lowlight), for the published sites and
 * the PDFs alike: `hljs-*` classes on spans, which each output colors its own way.
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

/** The code as highlighted nodes; one plain text node when the language is unknown or the code too long. */
export function highlightCode(code: string, language: string | null | undefined): ElementContent[] {
  const lang = language ? (ALIASES[language.toLowerCase()] ?? language.toLowerCase()) : undefined;
  if (lang && code.length <= MAX_HIGHLIGHT && lowlight.registered(lang)) return lowlight.highlight(lang, code).children as ElementContent[];
  return [{ type: 'text', value: code }];
}

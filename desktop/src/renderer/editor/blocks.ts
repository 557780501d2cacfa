import type { Editor, JSONContent } from '@tiptap/core';
import type { IconName } from '../components/Icons';
import { askText } from '../components/Prompt';
import { pickFiles, pickImageFiles } from './images';
import { insertFiles } from './paste';
import { insertTable } from './tables';

/**
 * Every block a writer can insert, for the `/` menu and the toolbar's Insert menu alike.
 * `run` acts at the caret (the `/query` text already removed).
 */
export interface BlockChoice {
  id: string;
  label: string;
  /** One line under the label in the `/` menu: what the block is for. */
  description: string;
  /**
   * The ways to make it without the menu, shown beside it: `keys` as in the editor's keymap
   * (`Mod-Alt-1`), `markdown` as typed at the start of a line. Only shortcuts that exist.
   */
  shortcut?: { keys?: string; markdown?: string };
  /** Other words that find it in the `/` menu. */
  keywords: string;
  icon: IconName;
  /** The schema node it inserts: an editor whose schema lacks it does not offer it. */
  node: string;
  run(editor: Editor, pages: readonly { id: string; title: string }[]): void | Promise<void>;
}

const insert = (json: JSONContent) => (editor: Editor) => {
  editor.chain().focus().insertContent(json).run();
};

/** Turns the current text block into `type` (a heading, a code block), or inserts one. */
const setBlock =
  (type: string, attrs: Record<string, unknown> = {}) =>
  (editor: Editor) => {
    editor.chain().focus().setNode(type, attrs).run();
  };

const hint = (style: string, label: string, icon: IconName, description: string): BlockChoice => ({
  id: `hint-${style}`,
  node: 'hint',
  label,
  description,
  keywords: `hint callout ${style} note`,
  icon,
  run: insert({ type: 'hint', attrs: { style }, content: [{ type: 'paragraph' }] }),
});

export const BLOCK_CHOICES: BlockChoice[] = [
  {
    id: 'paragraph',
    description: 'Plain text',
    shortcut: { keys: 'Mod-Alt-0' },
    node: 'paragraph',
    label: 'Text',
    keywords: 'paragraph plain',
    icon: 'page',
    run: setBlock('paragraph'),
  },
  {
    id: 'h1',
    description: 'Big section heading',
    shortcut: { keys: 'Mod-Alt-1', markdown: '#' },
    node: 'heading',
    label: 'Heading 1',
    keywords: 'title h1 big',
    icon: 'heading',
    run: setBlock('heading', { level: 1 }),
  },
  {
    id: 'h2',
    description: 'Medium section heading',
    shortcut: { keys: 'Mod-Alt-2', markdown: '##' },
    node: 'heading',
    label: 'Heading 2',
    keywords: 'subtitle h2',
    icon: 'heading',
    run: setBlock('heading', { level: 2 }),
  },
  {
    id: 'h3',
    description: 'Small section heading',
    shortcut: { keys: 'Mod-Alt-3', markdown: '###' },
    node: 'heading',
    label: 'Heading 3',
    keywords: 'h3 small',
    icon: 'heading',
    run: setBlock('heading', { level: 3 }),
  },
  {
    id: 'h4',
    description: 'Smallest heading',
    shortcut: { markdown: '####' },
    node: 'heading',
    label: 'Heading 4',
    keywords: 'h4 smallest',
    icon: 'heading',
    run: setBlock('heading', { level: 4 }),
  },
  {
    id: 'bulletList',
    description: 'A simple list of points',
    shortcut: { keys: 'Mod-Shift-8', markdown: '-' },
    node: 'bulletList',
    label: 'Bulleted list',
    keywords: 'ul unordered bullets',
    icon: 'list',
    run: (e) => void e.chain().focus().toggleList('bulletList', 'listItem').run(),
  },
  {
    id: 'orderedList',
    description: 'Numbered, in order',
    shortcut: { keys: 'Mod-Shift-7', markdown: '1.' },
    node: 'orderedList',
    label: 'Numbered list',
    keywords: 'ol ordered numbers',
    icon: 'orderedList',
    run: (e) => void e.chain().focus().toggleList('orderedList', 'listItem').run(),
  },
  {
    id: 'taskList',
    description: 'Items to tick off',
    shortcut: { keys: 'Mod-Shift-9', markdown: '[ ]' },
    node: 'taskList',
    label: 'Task list',
    keywords: 'todo checkbox checklist',
    icon: 'taskList',
    run: (e) => void e.chain().focus().toggleList('taskList', 'taskItem').run(),
  },
  {
    id: 'blockquote',
    description: 'Quoted text, set apart',
    shortcut: { keys: 'Mod-Shift-b', markdown: '>' },
    node: 'blockquote',
    label: 'Quote',
    keywords: 'blockquote citation',
    icon: 'quote',
    run: (e) => void e.chain().focus().toggleWrap('blockquote').run(),
  },
  {
    id: 'codeBlock',
    description: 'Code with highlighting',
    shortcut: { keys: 'Mod-Alt-c', markdown: '```' },
    node: 'codeBlock',
    label: 'Code block',
    keywords: 'code pre snippet',
    icon: 'codeBlock',
    run: setBlock('codeBlock'),
  },
  {
    id: 'mermaid',
    description: 'A diagram drawn from text',
    node: 'codeBlock',
    label: 'Diagram (Mermaid)',
    keywords: 'mermaid chart flowchart',
    icon: 'codeBlock',
    run: setBlock('codeBlock', { language: 'mermaid' }),
  },
  {
    id: 'table',
    description: 'Rows and columns',
    node: 'table',
    label: 'Table',
    keywords: 'grid rows columns',
    icon: 'table',
    run: (e) => void insertTable(e),
  },
  {
    id: 'image',
    description: 'A picture from a file',
    node: 'image',
    label: 'Image',
    keywords: 'picture photo screenshot',
    icon: 'image',
    run: async (e) => insertFiles(e, await pickImageFiles()),
  },
  {
    id: 'file',
    description: 'An attachment to download',
    node: 'file',
    label: 'File',
    keywords: 'attachment upload pdf download',
    icon: 'file',
    run: async (e) => insertFiles(e, await pickFiles()),
  },
  hint('info', 'Hint: info', 'info', 'A note that stands out'),
  hint('warning', 'Hint: warning', 'warning', 'Something to be careful about'),
  hint('danger', 'Hint: danger', 'danger', 'Something that can go badly wrong'),
  hint('success', 'Hint: success', 'check', 'A success or a good practice'),
  {
    id: 'tabs',
    description: 'Content in switchable tabs',
    node: 'tabs',
    label: 'Tabs',
    keywords: 'tabbed',
    icon: 'tabs',
    run: insert({
      type: 'tabs',
      content: [
        { type: 'tab', attrs: { title: 'First tab' }, content: [{ type: 'paragraph' }] },
        { type: 'tab', attrs: { title: 'Second tab' }, content: [{ type: 'paragraph' }] },
      ],
    }),
  },
  {
    id: 'details',
    description: 'Hidden until the reader opens it',
    node: 'details',
    label: 'Expandable',
    keywords: 'details collapsible toggle accordion',
    icon: 'details',
    run: insert({
      type: 'details',
      content: [
        { type: 'detailsSummary', content: [{ type: 'text', text: 'More details' }] },
        { type: 'detailsContent', content: [{ type: 'paragraph' }] },
      ],
    }),
  },
  {
    id: 'stepper',
    description: 'Numbered steps of a procedure',
    node: 'stepper',
    label: 'Stepper',
    keywords: 'steps procedure',
    icon: 'stepper',
    run: insert({
      type: 'stepper',
      content: [
        {
          type: 'step',
          content: [{ type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: 'Step one' }] }, { type: 'paragraph' }],
        },
        {
          type: 'step',
          content: [{ type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: 'Step two' }] }, { type: 'paragraph' }],
        },
      ],
    }),
  },
  {
    id: 'columns',
    description: 'Blocks side by side',
    node: 'columns',
    label: 'Columns',
    keywords: 'layout side by side two',
    icon: 'tabs',
    run: insert({
      type: 'columns',
      content: [
        { type: 'column', content: [{ type: 'paragraph' }] },
        { type: 'column', content: [{ type: 'paragraph' }] },
      ],
    }),
  },
  {
    id: 'updates',
    description: 'Dated entries, like a changelog',
    node: 'updates',
    label: 'Update log',
    keywords: 'changelog release notes updates',
    icon: 'list',
    run: (e) => {
      const date = new Date().toISOString().slice(0, 10);
      insert({ type: 'updates', content: [{ type: 'update', attrs: { date, title: null }, content: [{ type: 'paragraph' }] }] })(e);
    },
  },
  {
    id: 'math',
    description: 'A formula in TeX',
    node: 'math',
    label: 'Math',
    keywords: 'tex latex formula equation',
    icon: 'code',
    run: async (e) => {
      const tex = await askText({ title: 'Math', label: 'TeX', placeholder: 'E = mc^2' });
      if (tex?.trim()) insert({ type: 'math', attrs: { tex: tex.trim() } })(e);
    },
  },
  {
    id: 'openapiOperation',
    description: 'One endpoint of an API',
    node: 'openapiOperation',
    label: 'API operation',
    keywords: 'openapi swagger endpoint rest',
    icon: 'globe',
    run: async (e) => {
      const op = await askText({ title: 'API operation', label: 'Method and path', placeholder: 'GET /pets/{id}' });
      const m = op?.trim().match(/^(get|put|post|delete|patch|head|options)\s+(\S+)$/i);
      if (m) insert({ type: 'openapiOperation', attrs: { method: m[1]?.toLowerCase(), path: m[2] } })(e);
    },
  },
  {
    id: 'htmlBlock',
    description: 'Raw HTML, shown as written',
    node: 'htmlBlock',
    label: 'HTML',
    keywords: 'raw markup source',
    icon: 'code',
    run: async (e) => {
      const html = await askText({ title: 'HTML', label: 'Source', placeholder: '<div align="center">…</div>' });
      if (html?.trim()) insert({ type: 'htmlBlock', attrs: { html: html.trim() } })(e);
    },
  },
  {
    id: 'divider',
    description: 'A line between sections',
    shortcut: { markdown: '---' },
    node: 'horizontalRule',
    label: 'Divider',
    keywords: 'hr rule line separator',
    icon: 'divider',
    run: insert({ type: 'horizontalRule' }),
  },
  {
    id: 'embed',
    description: 'A video or page from a URL',
    node: 'embed',
    label: 'Embed',
    keywords: 'url video iframe youtube',
    icon: 'embed',
    run: async (e) => {
      const url = await askText({ title: 'Embed', label: 'URL', placeholder: 'https://…' });
      if (url?.trim()) insert({ type: 'embed', attrs: { url: url.trim() } })(e);
    },
  },
  {
    id: 'contentRef',
    description: 'A card linking to a page',
    node: 'contentRef',
    label: 'Page reference',
    keywords: 'link card content-ref',
    icon: 'page',
    run: async (e, pages) => {
      const target = await askText({ title: 'Page reference', label: 'Page title or URL', placeholder: 'Getting started' });
      if (!target?.trim()) return;
      const page = pages.find((p) => p.title.toLowerCase() === target.trim().toLowerCase());
      insert({ type: 'contentRef', attrs: page ? { href: `page:${page.id}`, title: page.title } : { href: target.trim() } })(e);
    },
  },
];

/** Choices whose label or keywords hold every typed word; label prefixes first. */
export function filterBlocks(query: string, choices: readonly BlockChoice[] = BLOCK_CHOICES): BlockChoice[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...choices];
  const words = q.split(/\s+/);
  const hits = choices.filter((c) => words.every((w) => `${c.label} ${c.keywords} ${c.id}`.toLowerCase().includes(w)));
  return hits.sort((a, b) => Number(!a.label.toLowerCase().startsWith(q)) - Number(!b.label.toLowerCase().startsWith(q)));
}

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const KEY_NAMES: Record<string, [mac: string, other: string]> = {
  Mod: ['⌘', 'Ctrl'],
  Alt: ['⌥', 'Alt'],
  Shift: ['⇧', 'Shift'],
  Ctrl: ['⌃', 'Ctrl'],
};

/** A keymap binding (`Mod-Alt-1`) as this platform writes it: Ctrl+Alt+1, or ⌘⌥1 on a Mac. */
export function keysLabel(keys: string, mac = MAC): string {
  const parts = keys.split('-').map((k) => KEY_NAMES[k]?.[mac ? 0 : 1] ?? k.toUpperCase());
  return parts.join(mac ? '' : '+');
}

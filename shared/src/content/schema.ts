import { type MarkSpec, type NodeSpec, Schema } from 'prosemirror-model';

/** Styles a `hint` block can take; GitBook's four. */
export const HINT_STYLES = ['info', 'success', 'warning', 'danger'] as const;
export type HintStyle = (typeof HINT_STYLES)[number];

/** Heading levels a page body keeps; deeper markdown headings are folded into level 3. */
export const MAX_HEADING_LEVEL = 3;

/**
 * Body nodes. Names and content expressions follow TipTap's / y-prosemirror's so an
 * editor built on them can bind to a page body without losing content: an editor drops
 * any Yjs element its own schema rejects, so ours is never more permissive on shared names.
 */
const nodes: Record<string, NodeSpec> = {
  doc: { content: 'block+' },
  paragraph: { group: 'block', content: 'inline*' },
  heading: { group: 'block', content: 'inline*', defining: true, attrs: { level: { default: 1 } } },
  blockquote: { group: 'block', content: 'block+', defining: true },
  bulletList: { group: 'block list', content: 'listItem+' },
  orderedList: { group: 'block list', content: 'listItem+', attrs: { start: { default: 1 } } },
  listItem: { content: 'paragraph block*', defining: true },
  taskList: { group: 'block list', content: 'taskItem+' },
  taskItem: { content: 'paragraph block*', defining: true, attrs: { checked: { default: false } } },
  codeBlock: {
    group: 'block',
    content: 'text*',
    marks: '',
    code: true,
    defining: true,
    attrs: {
      language: { default: null },
      // GitBook's `{% code title="…" %}` caption
      title: { default: null },
      lineNumbers: { default: false },
      // GitBook's `overflow="wrap"`
      wrap: { default: false },
    },
  },
  hint: { group: 'block', content: 'block+', defining: true, attrs: { style: { default: 'info' } } },
  table: { group: 'block', content: 'tableRow+', isolating: true },
  tableRow: { content: '(tableCell | tableHeader)*' },
  tableHeader: { content: 'block+', isolating: true, attrs: { align: { default: null } } },
  tableCell: { content: 'block+', isolating: true, attrs: { align: { default: null } } },
  image: {
    group: 'block',
    atom: true,
    attrs: {
      // a URL, a path as written in a git repository, or `file:<fileId>`
      src: { default: '' },
      alt: { default: null },
      caption: { default: null },
      width: { default: null },
      // the image shown in dark mode (`<picture><source srcset>`)
      srcDark: { default: null },
    },
  },
  file: {
    group: 'block',
    atom: true,
    attrs: {
      fileId: { default: null },
      // an unresolved path or URL, until an import turns it into a space file
      src: { default: null },
      caption: { default: null },
    },
  },
  horizontalRule: { group: 'block' },
  tabs: { group: 'block', content: 'tab+' },
  tab: { content: 'block+', defining: true, attrs: { title: { default: '' } } },
  details: { group: 'block', content: 'detailsSummary detailsContent', defining: true, isolating: true },
  detailsSummary: { content: 'text*', marks: '', defining: true, isolating: true },
  detailsContent: { content: 'block+', defining: true },
  embed: { group: 'block', atom: true, attrs: { url: { default: '' }, caption: { default: null } } },
  contentRef: {
    group: 'block',
    atom: true,
    attrs: {
      // `page:<pageId>`, `page:<pageId>#anchor`, a URL, or a path as written in a git repository
      href: { default: '' },
      title: { default: null },
    },
  },
  stepper: { group: 'block', content: 'step+' },
  step: { content: 'block+', defining: true },
  text: { group: 'inline' },
  hardBreak: { group: 'inline', inline: true, selectable: false },
  inlineImage: {
    group: 'inline',
    inline: true,
    atom: true,
    attrs: { src: { default: '' }, alt: { default: null }, title: { default: null } },
  },
};

/** Marks, outermost first: the order decides how they nest when written as markdown. */
const marks: Record<string, MarkSpec> = {
  link: {
    // `https://…`, `page:<pageId>`, `page:<pageId>#anchor`, `#anchor`, `file:<fileId>` or a relative path
    attrs: { href: { default: '' }, title: { default: null } },
    inclusive: false,
  },
  bold: {},
  italic: {},
  strike: {},
  code: {},
};

/** The one schema of page bodies: markdown, Yjs, GitBook documents and editors all go through it. */
export const bodySchema = new Schema({ nodes, marks });

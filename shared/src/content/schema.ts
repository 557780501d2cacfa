import { type MarkSpec, type NodeSpec, Schema } from 'prosemirror-model';

/** Styles a `hint` block can take; GitBook's four. */
export const HINT_STYLES = ['info', 'success', 'warning', 'danger'] as const;
export type HintStyle = (typeof HINT_STYLES)[number];

/** Heading levels a page body keeps; deeper markdown headings are folded into level 4. */
export const MAX_HEADING_LEVEL = 4;

/**
 * Body nodes. Names and content expressions follow TipTap's / y-prosemirror's so an
 * editor built on them can bind to a page body without losing content: an editor drops
 * any Yjs element its own schema rejects, so ours is never more permissive on shared names.
 */
const nodes: Record<string, NodeSpec> = {
  doc: { content: 'block+' },
  paragraph: { group: 'block', content: 'inline*' },
  heading: {
    group: 'block',
    content: 'inline*',
    defining: true,
    // `id`: the anchor written in the source (`## Title <a href="#x" id="x"></a>`); null derives it from the text
    attrs: { level: { default: 1 }, id: { default: null } },
  },
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
  // `html`: the summary as written when it holds more than text (an image), kept for the export
  detailsSummary: { content: 'text*', marks: '', defining: true, isolating: true, attrs: { html: { default: null } } },
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
  // HTML kept as written where no richer node fits; renderers pass it through their sanitizer
  htmlBlock: { group: 'block', atom: true, attrs: { html: { default: '' } } },
  columns: { group: 'block', content: 'column+', isolating: true },
  // `width`: a percentage of the row, or null for an even share
  column: { content: 'block+', defining: true, isolating: true, attrs: { width: { default: null } } },
  updates: { group: 'block', content: 'update+' },
  update: { content: 'block+', defining: true, attrs: { date: { default: '' }, title: { default: null } } },
  math: { group: 'block', atom: true, attrs: { tex: { default: '' } } },
  openapiOperation: {
    group: 'block',
    atom: true,
    attrs: {
      // an OpenAPI specification of the organization, by slug
      spec: { default: null },
      // or a specification's URL / path as written
      src: { default: null },
      path: { default: '' },
      method: { default: 'get' },
    },
  },
  reusableContent: {
    group: 'block',
    atom: true,
    attrs: {
      reusableContentId: { default: null },
      // the included file as written (`../.gitbook/includes/x.md`), until an import resolves it
      src: { default: null },
    },
  },
  text: { group: 'inline' },
  htmlInline: { group: 'inline', inline: true, atom: true, attrs: { html: { default: '' } } },
  mathInline: { group: 'inline', inline: true, atom: true, attrs: { tex: { default: '' } } },
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

import { HINT_STYLES, MAX_HEADING_LEVEL, bodySchema } from '@quire/shared/content/schema';
import { type AnyExtension, Mark, Node } from '@tiptap/core';
import { FOLLOW_HINT } from './followLinks';
import type { DOMOutputSpec, MarkSpec, NodeSpec, Node as PMNode, TagParseRule } from '@tiptap/pm/model';

/**
 * The editor's schema is the shared body schema, node for node and attribute for
 * attribute: names, content expressions, groups and attributes are read from
 * `bodySchema` itself, so the editor can never drop a node the server stored or invent
 * one it would refuse (y-prosemirror deletes any Yjs element the editor's schema
 * rejects). What this file adds is only how each node looks in the DOM and how pasted
 * HTML maps onto it.
 */

type Attrs = Record<string, unknown>;

interface DomMapping {
  parse: TagParseRule[];
  render: (node: PMNode) => DOMOutputSpec;
}

const str = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
const clean = (attrs: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(attrs).filter(([, v]) => v !== undefined)) as Record<string, string>;

const alignOf = (el: HTMLElement) => {
  const a = el.style.textAlign || el.getAttribute('align');
  return a === 'left' || a === 'center' || a === 'right' ? a : null;
};

const block = (type: string, tag = 'div'): DomMapping => ({
  parse: [{ tag: `${tag}[data-type="${type}"]` }],
  render: () => [tag, { 'data-type': type, class: `qe-${type}` }, 0],
});

/** A picture's address as written: a space file's (`data-src`) or a web one (`src`). */
const srcOf = (img: HTMLElement) => img.getAttribute('data-src') ?? img.getAttribute('src') ?? '';

/**
 * An address the window can load as it is. A space file (`file:<id>`, `upload:<id>`) is
 * not one: its bytes come from the LocalNode, and an `img` given that address would have
 * the browser try (and refuse) to load it.
 */
export function loadableSrc(src: unknown): string | undefined {
  return typeof src === 'string' && /^(https?:|data:image\/|blob:)/i.test(src) ? src : undefined;
}

/**
 * An image block's DOM. `safe`: only an address the window can load goes in `src` (the
 * written one is kept in `data-src`, which parsing reads back), so the DOM made for the
 * clipboard or a read-only view never loads a space file's address.
 */
export function imageDom(node: PMNode, safe: boolean): DOMOutputSpec {
  const src = str(node.attrs.src);
  return [
    'figure',
    { class: 'qe-image' },
    [
      'img',
      clean({
        src: safe ? loadableSrc(src) : src,
        'data-src': safe ? src : undefined,
        alt: str(node.attrs.alt),
        width: str(node.attrs.width),
      }),
    ],
    ...(node.attrs.caption ? [['figcaption', String(node.attrs.caption)] as DOMOutputSpec] : []),
  ];
}

/** An inline image's DOM; `safe` as for `imageDom`. */
export function inlineImageDom(node: PMNode, safe: boolean): DOMOutputSpec {
  const src = str(node.attrs.src);
  return [
    'img',
    clean({
      'data-inline': 'true',
      src: safe ? loadableSrc(src) : src,
      'data-src': safe ? src : undefined,
      alt: str(node.attrs.alt),
      title: str(node.attrs.title),
      class: 'qe-inline-image',
    }),
  ];
}

/** DOM for every node of the body schema. A node missing here fails the startup check below. */
const NODE_DOM: Record<string, DomMapping> = {
  paragraph: { parse: [{ tag: 'p' }], render: () => ['p', 0] },
  heading: {
    parse: [1, 2, 3, 4, 5, 6].map((level) => ({ tag: `h${level}`, attrs: { level: Math.min(level, MAX_HEADING_LEVEL) } })),
    render: (node) => [`h${node.attrs.level}`, 0],
  },
  blockquote: { parse: [{ tag: 'blockquote' }], render: () => ['blockquote', 0] },
  bulletList: { parse: [{ tag: 'ul:not([data-type])' }, { tag: 'ul', priority: 40 }], render: () => ['ul', 0] },
  orderedList: {
    parse: [
      {
        tag: 'ol:not([data-type])',
        getAttrs: (el) => ({ start: Number((el as HTMLElement).getAttribute('start') ?? 1) || 1 }),
      },
    ],
    render: (node) => ['ol', node.attrs.start === 1 ? {} : { start: String(node.attrs.start) }, 0],
  },
  listItem: { parse: [{ tag: 'li:not([data-type])' }], render: () => ['li', 0] },
  taskList: { parse: [{ tag: 'ul[data-type="taskList"]', priority: 60 }], render: () => ['ul', { 'data-type': 'taskList' }, 0] },
  taskItem: {
    parse: [
      { tag: 'li[data-type="taskItem"]', getAttrs: (el) => ({ checked: (el as HTMLElement).getAttribute('data-checked') === 'true' }) },
    ],
    render: (node) => [
      'li',
      { 'data-type': 'taskItem', 'data-checked': String(!!node.attrs.checked) },
      [
        'label',
        { contenteditable: 'false' },
        ['input', node.attrs.checked ? { type: 'checkbox', checked: 'checked' } : { type: 'checkbox' }],
      ],
      ['div', 0],
    ],
  },
  codeBlock: {
    parse: [
      {
        tag: 'pre',
        preserveWhitespace: 'full',
        getAttrs: (el) => {
          const code = (el as HTMLElement).querySelector('code');
          const cls = code?.className.match(/language-([\w+#-]+)/);
          return { language: (el as HTMLElement).getAttribute('data-language') ?? cls?.[1] ?? null };
        },
      },
    ],
    render: (node) => [
      'pre',
      clean({ 'data-language': str(node.attrs.language), 'data-title': str(node.attrs.title) }),
      ['code', clean({ class: node.attrs.language ? `language-${node.attrs.language}` : undefined }), 0],
    ],
  },
  hint: {
    parse: [
      {
        tag: 'div[data-type="hint"]',
        getAttrs: (el) => {
          const style = (el as HTMLElement).getAttribute('data-style');
          return { style: (HINT_STYLES as readonly string[]).includes(style ?? '') ? style : 'info' };
        },
      },
    ],
    render: (node) => [
      'div',
      { 'data-type': 'hint', 'data-style': String(node.attrs.style), class: `qe-hint qe-hint-${node.attrs.style}` },
      0,
    ],
  },
  table: { parse: [{ tag: 'table' }], render: () => ['table', { class: 'qe-table' }, ['tbody', 0]] },
  tableRow: { parse: [{ tag: 'tr' }], render: () => ['tr', 0] },
  tableHeader: {
    parse: [{ tag: 'th', getAttrs: (el) => ({ align: alignOf(el as HTMLElement) }) }],
    render: (node) => ['th', clean({ style: node.attrs.align ? `text-align:${node.attrs.align}` : undefined }), 0],
  },
  tableCell: {
    parse: [{ tag: 'td', getAttrs: (el) => ({ align: alignOf(el as HTMLElement) }) }],
    render: (node) => ['td', clean({ style: node.attrs.align ? `text-align:${node.attrs.align}` : undefined }), 0],
  },
  image: {
    parse: [
      {
        tag: 'figure',
        getAttrs: (el) => {
          const img = (el as HTMLElement).querySelector('img');
          if (!img) return false;
          return {
            src: srcOf(img),
            alt: img.getAttribute('alt'),
            width: img.getAttribute('width'),
            caption: (el as HTMLElement).querySelector('figcaption')?.textContent ?? null,
          };
        },
      },
      {
        tag: 'img[src], img[data-src]',
        getAttrs: (el) => ({
          src: srcOf(el as HTMLElement),
          alt: (el as HTMLElement).getAttribute('alt'),
          width: (el as HTMLElement).getAttribute('width'),
        }),
      },
    ],
    render: (node) => imageDom(node, false),
  },
  file: {
    parse: [
      {
        tag: 'div[data-type="file"]',
        getAttrs: (el) => ({ fileId: (el as HTMLElement).getAttribute('data-file-id'), src: (el as HTMLElement).getAttribute('data-src') }),
      },
    ],
    render: (node) => [
      'div',
      clean({ 'data-type': 'file', 'data-file-id': str(node.attrs.fileId), 'data-src': str(node.attrs.src), class: 'qe-file' }),
      String(node.attrs.caption ?? node.attrs.src ?? 'File'),
    ],
  },
  horizontalRule: { parse: [{ tag: 'hr' }], render: () => ['hr'] },
  tabs: block('tabs'),
  tab: {
    parse: [{ tag: 'div[data-type="tab"]', getAttrs: (el) => ({ title: (el as HTMLElement).getAttribute('data-title') ?? '' }) }],
    render: (node) => ['div', { 'data-type': 'tab', 'data-title': String(node.attrs.title ?? ''), class: 'qe-tab' }, 0],
  },
  details: {
    parse: [{ tag: 'details' }, { tag: 'div[data-type="details"]' }],
    render: () => ['div', { 'data-type': 'details', class: 'qe-details' }, 0],
  },
  detailsSummary: {
    parse: [{ tag: 'summary' }, { tag: 'div[data-type="detailsSummary"]' }],
    render: () => ['div', { 'data-type': 'detailsSummary', class: 'qe-details-summary' }, 0],
  },
  detailsContent: block('detailsContent'),
  embed: {
    parse: [{ tag: 'div[data-type="embed"]', getAttrs: (el) => ({ url: (el as HTMLElement).getAttribute('data-url') ?? '' }) }],
    render: (node) => ['div', { 'data-type': 'embed', 'data-url': String(node.attrs.url), class: 'qe-embed' }, String(node.attrs.url)],
  },
  contentRef: {
    parse: [{ tag: 'div[data-type="contentRef"]', getAttrs: (el) => ({ href: (el as HTMLElement).getAttribute('data-href') ?? '' }) }],
    render: (node) => [
      'div',
      { 'data-type': 'contentRef', 'data-href': String(node.attrs.href), class: 'qe-content-ref' },
      String(node.attrs.title ?? node.attrs.href),
    ],
  },
  stepper: {
    parse: [{ tag: 'ol[data-type="stepper"]', priority: 60 }],
    render: () => ['ol', { 'data-type': 'stepper', class: 'qe-stepper' }, 0],
  },
  step: { parse: [{ tag: 'li[data-type="step"]', priority: 60 }], render: () => ['li', { 'data-type': 'step', class: 'qe-step' }, 0] },
  hardBreak: { parse: [{ tag: 'br' }], render: () => ['br'] },
  // The content model's layout and source-kept nodes. HTML is stored as written and only
  // ever shown through the sanitizer (the node views in `contractViews.ts`); here it
  // travels as an attribute, never as markup.
  htmlBlock: {
    parse: [{ tag: 'div[data-type="htmlBlock"]', getAttrs: (el) => ({ html: (el as HTMLElement).getAttribute('data-html') ?? '' }) }],
    render: (node) => ['div', { 'data-type': 'htmlBlock', 'data-html': String(node.attrs.html ?? ''), class: 'qe-html' }],
  },
  htmlInline: {
    parse: [{ tag: 'span[data-type="htmlInline"]', getAttrs: (el) => ({ html: (el as HTMLElement).getAttribute('data-html') ?? '' }) }],
    render: (node) => ['span', { 'data-type': 'htmlInline', 'data-html': String(node.attrs.html ?? ''), class: 'qe-html-inline' }],
  },
  columns: block('columns'),
  column: {
    parse: [
      {
        tag: 'div[data-type="column"]',
        getAttrs: (el) => {
          const width = Number((el as HTMLElement).getAttribute('data-width'));
          return { width: Number.isFinite(width) && width > 0 ? width : null };
        },
      },
    ],
    render: (node) => [
      'div',
      clean({
        'data-type': 'column',
        'data-width': str(node.attrs.width),
        class: 'qe-column',
        style: node.attrs.width ? `flex: 0 0 ${Number(node.attrs.width)}%` : undefined,
      }),
      0,
    ],
  },
  updates: block('updates'),
  update: {
    parse: [
      {
        tag: 'div[data-type="update"]',
        getAttrs: (el) => ({
          date: (el as HTMLElement).getAttribute('data-date') ?? '',
          title: (el as HTMLElement).getAttribute('data-title'),
        }),
      },
    ],
    render: (node) => [
      'div',
      clean({ 'data-type': 'update', 'data-date': str(node.attrs.date), 'data-title': str(node.attrs.title), class: 'qe-update' }),
      [
        'div',
        { class: 'qe-update-meta', contenteditable: 'false' },
        ['time', String(node.attrs.date ?? '')],
        ...(node.attrs.title ? [['strong', String(node.attrs.title)] as DOMOutputSpec] : []),
      ],
      ['div', { class: 'qe-update-body' }, 0],
    ],
  },
  math: {
    parse: [{ tag: 'div[data-type="math"]', getAttrs: (el) => ({ tex: (el as HTMLElement).getAttribute('data-tex') ?? '' }) }],
    render: (node) => [
      'div',
      { 'data-type': 'math', 'data-tex': String(node.attrs.tex ?? ''), class: 'qe-math' },
      String(node.attrs.tex ?? ''),
    ],
  },
  mathInline: {
    parse: [{ tag: 'span[data-type="mathInline"]', getAttrs: (el) => ({ tex: (el as HTMLElement).getAttribute('data-tex') ?? '' }) }],
    render: (node) => [
      'span',
      { 'data-type': 'mathInline', 'data-tex': String(node.attrs.tex ?? ''), class: 'qe-math-inline' },
      String(node.attrs.tex ?? ''),
    ],
  },
  openapiOperation: {
    parse: [
      {
        tag: 'div[data-type="openapiOperation"]',
        getAttrs: (el) => {
          const e = el as HTMLElement;
          return {
            spec: e.getAttribute('data-spec'),
            src: e.getAttribute('data-src'),
            path: e.getAttribute('data-path') ?? '',
            method: e.getAttribute('data-method') ?? 'get',
          };
        },
      },
    ],
    render: (node) => [
      'div',
      clean({
        'data-type': 'openapiOperation',
        'data-spec': str(node.attrs.spec),
        'data-src': str(node.attrs.src),
        'data-path': str(node.attrs.path),
        'data-method': str(node.attrs.method),
        class: 'qe-openapi',
      }),
      `${String(node.attrs.method ?? 'get').toUpperCase()} ${String(node.attrs.path ?? '')}`,
    ],
  },
  reusableContent: {
    parse: [
      {
        tag: 'div[data-type="reusableContent"]',
        getAttrs: (el) => ({
          reusableContentId: (el as HTMLElement).getAttribute('data-reusable-content-id'),
          src: (el as HTMLElement).getAttribute('data-src'),
        }),
      },
    ],
    render: (node) => [
      'div',
      clean({
        'data-type': 'reusableContent',
        'data-reusable-content-id': str(node.attrs.reusableContentId),
        'data-src': str(node.attrs.src),
        class: 'qe-reusable',
      }),
      `Reusable content: ${String(node.attrs.src ?? node.attrs.reusableContentId ?? '')}`,
    ],
  },
  inlineImage: {
    parse: [
      {
        tag: 'img[data-inline]',
        getAttrs: (el) => ({ src: srcOf(el as HTMLElement), alt: (el as HTMLElement).getAttribute('alt') }),
      },
    ],
    render: (node) => inlineImageDom(node, false),
  },
};

const MARK_DOM: Record<string, { parse: NonNullable<MarkSpec['parseDOM']>; render: (attrs: Attrs) => DOMOutputSpec }> = {
  link: {
    parse: [
      {
        tag: 'a[href]',
        getAttrs: (el) => ({
          href: (el as HTMLElement).getAttribute('href') ?? '',
          title: linkTitle((el as HTMLElement).getAttribute('title')),
        }),
      },
    ],
    render: (attrs) => [
      'a',
      clean({
        href: str(attrs.href),
        title: [str(attrs.title), FOLLOW_HINT].filter(Boolean).join(' · '),
        rel: 'noopener noreferrer nofollow',
      }),
      0,
    ],
  },
  bold: {
    parse: [
      { tag: 'strong' },
      { tag: 'b', getAttrs: (el) => (el as HTMLElement).style.fontWeight !== 'normal' && null },
      { style: 'font-weight=bold' },
    ],
    render: () => ['strong', 0],
  },
  italic: { parse: [{ tag: 'em' }, { tag: 'i' }, { style: 'font-style=italic' }], render: () => ['em', 0] },
  strike: { parse: [{ tag: 's' }, { tag: 'del' }, { tag: 'strike' }, { style: 'text-decoration=line-through' }], render: () => ['s', 0] },
  code: { parse: [{ tag: 'code', priority: 40 }], render: () => ['code', 0] },
};

/** A link's own title, without the hint the editor adds to it (a link copied from the page comes back as it was). */
function linkTitle(title: string | null): string | null {
  const own = title?.endsWith(FOLLOW_HINT) ? title.slice(0, -FOLLOW_HINT.length).replace(/ · $/, '') : title;
  return own || null;
}

/** Attributes taken from the shared spec; parsing is done by the node's own rules. */
function attributesOf(spec: NodeSpec | MarkSpec) {
  const out: Record<string, { default: unknown; rendered: false; parseHTML: () => null; keepOnSplit: boolean }> = {};
  for (const [name, attr] of Object.entries(spec.attrs ?? {})) {
    out[name] = { default: attr.default, rendered: false, parseHTML: () => null, keepOnSplit: name !== 'checked' };
  }
  return out;
}

/** Extra behaviour per node (node views, keyboard) is merged in by the editor. */
export type NodeExtras = Partial<Record<string, Parameters<typeof Node.create>[0]>>;

/** One TipTap extension per node and mark of the shared schema, in the schema's order. */
export function schemaExtensions(extras: NodeExtras = {}): AnyExtension[] {
  const out: AnyExtension[] = [];
  bodySchema.spec.nodes.forEach((name, spec) => {
    if (name === 'doc' || name === 'text') {
      out.push(Node.create({ name, topNode: name === 'doc', content: spec.content, group: spec.group, inline: spec.inline }));
      return;
    }
    const dom = NODE_DOM[name];
    if (!dom) throw new Error(`The editor has no DOM mapping for the body node "${name}".`);
    out.push(
      Node.create({
        name,
        content: spec.content,
        group: spec.group,
        inline: spec.inline,
        atom: spec.atom,
        marks: spec.marks,
        code: spec.code,
        defining: spec.defining,
        isolating: spec.isolating,
        selectable: spec.selectable ?? true,
        draggable: !!spec.atom && !spec.inline,
        whitespace: spec.code ? 'pre' : undefined,
        addAttributes: () => attributesOf(spec),
        parseHTML: () => dom.parse,
        renderHTML: ({ node }) => dom.render(node),
        ...extras[name],
      }),
    );
  });
  bodySchema.spec.marks.forEach((name, spec) => {
    const dom = MARK_DOM[name];
    if (!dom) throw new Error(`The editor has no DOM mapping for the body mark "${name}".`);
    out.push(
      Mark.create({
        name,
        inclusive: spec.inclusive,
        excludes: spec.excludes,
        addAttributes: () => attributesOf(spec),
        parseHTML: () => dom.parse,
        renderHTML: ({ mark }) => dom.render(mark.attrs),
      }),
    );
  });
  return out;
}

/** Node names of the body schema, for toolbars and tests. */
export const BODY_NODE_NAMES = Object.keys(NODE_DOM);

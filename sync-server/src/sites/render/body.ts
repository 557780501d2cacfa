import { AnchorAllocator, inlineText } from '@quire/shared/content/anchors';
import type { NodeJSON } from '@quire/shared/content/json';
import { isSafeUrl, parseTarget } from '@quire/shared/content/targets';
import type { Element, ElementContent, Root } from 'hast';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';

/**
 * Page bodies to HTML. The body (ProseMirror JSON of the content model) is turned into an
 * HTML tree node by node, so text is never parsed as markup, and the tree then goes
 * through rehype-sanitize with an allow-list: whatever an editor or an import put in a
 * body, no script, event handler, `javascript:` URL or foreign element reaches a reader.
 */

export interface OutlineEntry {
  anchor: string;
  title: string;
  level: number;
}

export interface RenderedBody {
  html: string;
  outline: OutlineEntry[];
}

/** How targets inside the body become URLs of the published site. */
export interface LinkResolver {
  /** URL of a page of the same space (and heading), or undefined when it is not published. */
  page(pageId: string, anchor: string | null): string | undefined;
  /** URL of a space file. */
  file(fileId: string): string | undefined;
  /** Links to other hosts open in a new tab when the site says so. */
  externalTarget: 'self' | 'blank';
}

/** The default allow-list, minus its per-element class restrictions (the renderer's classes are its own). */
const baseAttributes = Object.fromEntries(
  Object.entries(defaultSchema.attributes ?? {}).map(([tag, attrs]) => [
    tag,
    attrs.filter((a) => (Array.isArray(a) ? a[0] : a) !== 'className'),
  ]),
);

const SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  // Heading ids must match the anchors `page:<id>#anchor` links and the outline use.
  clobberPrefix: '',
  clobber: [],
  tagNames: [
    ...(defaultSchema.tagNames ?? []),
    'figure',
    'figcaption',
    'aside',
    'details',
    'summary',
    'picture',
    'source',
    'mark',
    'section',
    'nav',
    'button',
  ],
  attributes: {
    ...baseAttributes,
    '*': [...(baseAttributes['*'] ?? []), 'className', 'id', 'dataLanguage', 'dataStyle', 'role', 'ariaLabel', 'ariaHidden'],
    a: [...(baseAttributes.a ?? []), 'target', 'rel'],
    img: [...(baseAttributes.img ?? []), 'loading', 'decoding', 'width'],
    source: ['srcSet', 'media'],
    ol: ['start'],
    td: ['align'],
    th: ['align'],
    input: [['type', 'checkbox'], ['disabled', true], 'checked'],
    button: ['type'],
    details: ['open'],
  },
  protocols: { href: ['http', 'https', 'mailto', 'tel'], src: ['http', 'https'], srcSet: ['http', 'https'], cite: ['http', 'https'] },
};

const processor = unified().use(rehypeSanitize, SCHEMA).use(rehypeStringify);

const el = (tagName: string, properties: Element['properties'], children: ElementContent[] = []): Element => ({
  type: 'element',
  tagName,
  properties,
  children,
});
const txt = (value: string): ElementContent => ({ type: 'text', value });

/** A target as a URL the reader may follow, or undefined for one that must not be one. */
function resolveHref(href: unknown, links: LinkResolver): string | undefined {
  if (typeof href !== 'string' || !href || !isSafeUrl(href)) return undefined;
  const t = parseTarget(href);
  switch (t.kind) {
    case 'page':
      return links.page(t.pageId, t.anchor);
    case 'file':
      return links.file(t.fileId);
    case 'anchor':
      return `#${encodeURIComponent(t.anchor)}`;
    case 'url':
      return /^(https?:|mailto:|tel:)/i.test(t.url) ? t.url : undefined;
    case 'path':
      // A git-style path no import resolved leads nowhere on the site.
      return undefined;
  }
}

function isExternal(url: string): boolean {
  return /^https?:/i.test(url);
}

export function renderBody(body: NodeJSON, links: LinkResolver): RenderedBody {
  const anchors = new AnchorAllocator();
  const outline: OutlineEntry[] = [];

  const inline = (nodes: NodeJSON[] | undefined): ElementContent[] => {
    const out: ElementContent[] = [];
    for (const n of nodes ?? []) {
      if (n.type === 'hardBreak') {
        out.push(el('br', {}));
        continue;
      }
      if (n.type === 'inlineImage') {
        const src = resolveHref(n.attrs?.src, links);
        if (src)
          out.push(
            el('img', { src, alt: String(n.attrs?.alt ?? ''), title: n.attrs?.title ? String(n.attrs.title) : undefined, loading: 'lazy' }),
          );
        continue;
      }
      if (n.type !== 'text') {
        out.push(...inline(n.content));
        continue;
      }
      let node: ElementContent = txt(n.text ?? '');
      // Marks are listed outermost first: wrap from the innermost out.
      for (const mark of [...(n.marks ?? [])].reverse()) {
        switch (mark.type) {
          case 'bold':
            node = el('strong', {}, [node]);
            break;
          case 'italic':
            node = el('em', {}, [node]);
            break;
          case 'strike':
            node = el('del', {}, [node]);
            break;
          case 'code':
            node = el('code', {}, [node]);
            break;
          case 'link': {
            const href = resolveHref(mark.attrs?.href, links);
            if (!href) break;
            const blank = links.externalTarget === 'blank' && isExternal(href);
            node = el(
              'a',
              {
                href,
                title: mark.attrs?.title ? String(mark.attrs.title) : undefined,
                ...(blank ? { target: '_blank', rel: ['noopener', 'noreferrer'] } : {}),
              },
              [node],
            );
            break;
          }
        }
      }
      out.push(node);
    }
    return out;
  };

  const blocks = (nodes: NodeJSON[] | undefined): ElementContent[] => (nodes ?? []).flatMap((n) => block(n));

  const figure = (media: ElementContent, caption: unknown): ElementContent => {
    const children: ElementContent[] = [media];
    if (typeof caption === 'string' && caption) children.push(el('figcaption', {}, [txt(caption)]));
    return el('figure', {}, children);
  };

  const block = (n: NodeJSON): ElementContent[] => {
    const a = n.attrs ?? {};
    switch (n.type) {
      case 'paragraph':
        return [el('p', {}, inline(n.content))];
      case 'heading': {
        const title = inlineText(n);
        const anchor = anchors.next(title);
        const level = Math.min(Math.max(Number(a.level ?? 1), 1), 3);
        outline.push({ anchor, title, level });
        return [
          el(`h${level + 1}`, { id: anchor, className: ['heading'] }, [
            ...inline(n.content),
            el('a', { href: `#${anchor}`, className: ['anchor'], ariaHidden: 'true' }, [txt('#')]),
          ]),
        ];
      }
      case 'blockquote':
        return [el('blockquote', {}, blocks(n.content))];
      case 'bulletList':
        return [el('ul', {}, blocks(n.content))];
      case 'orderedList':
        return [el('ol', { start: Number(a.start ?? 1) === 1 ? undefined : Number(a.start) }, blocks(n.content))];
      case 'listItem':
        return [el('li', {}, blocks(n.content))];
      case 'taskList':
        return [el('ul', { className: ['task-list'] }, blocks(n.content))];
      case 'taskItem':
        return [
          el('li', { className: ['task-item'] }, [
            el('input', { type: 'checkbox', disabled: true, checked: !!a.checked }),
            ...blocks(n.content),
          ]),
        ];
      case 'codeBlock': {
        const language = typeof a.language === 'string' && /^[\w+#.-]{1,32}$/.test(a.language) ? a.language : undefined;
        const code = el('pre', { className: ['code', ...(a.wrap ? ['wrap'] : [])], dataLanguage: language }, [
          el('code', { className: language ? [`language-${language}`] : [] }, [txt(inlineText(n))]),
        ]);
        const head: ElementContent[] = [];
        if (a.title || language) {
          head.push(
            el('div', { className: ['code-head'] }, [
              el('span', {}, [txt(String(a.title || language))]),
              el('button', { className: ['copy'], type: 'button', ariaLabel: 'Copy' }, [txt('Copy')]),
            ]),
          );
        }
        return [el('div', { className: ['code-block'] }, [...head, code])];
      }
      case 'hint': {
        const style = ['info', 'success', 'warning', 'danger'].includes(String(a.style)) ? String(a.style) : 'info';
        return [el('div', { className: ['hint', `hint-${style}`], role: 'note' }, blocks(n.content))];
      }
      case 'table':
        return [el('div', { className: ['table-wrap'] }, [el('table', {}, [el('tbody', {}, blocks(n.content))])])];
      case 'tableRow':
        return [el('tr', {}, blocks(n.content))];
      case 'tableHeader':
      case 'tableCell': {
        const align = ['left', 'center', 'right'].includes(String(a.align)) ? String(a.align) : undefined;
        const cell =
          (n.content ?? []).length === 1 && n.content?.[0]?.type === 'paragraph' ? inline(n.content[0].content) : blocks(n.content);
        return [el(n.type === 'tableHeader' ? 'th' : 'td', { align }, cell)];
      }
      case 'image': {
        const src = resolveHref(a.src, links);
        if (!src) return [];
        const dark = resolveHref(a.srcDark, links);
        const img = el('img', {
          src,
          alt: String(a.alt ?? ''),
          loading: 'lazy',
          decoding: 'async',
          width: typeof a.width === 'number' ? a.width : undefined,
        });
        const media = dark ? el('picture', {}, [el('source', { srcSet: dark, media: '(prefers-color-scheme: dark)' }), img]) : img;
        return [figure(media, a.caption)];
      }
      case 'file': {
        const href = a.fileId ? links.file(String(a.fileId)) : resolveHref(a.src, links);
        const label = String(a.caption || 'Download file');
        return href ? [el('p', { className: ['file'] }, [el('a', { href, className: ['file-link'] }, [txt(label)])])] : [];
      }
      case 'horizontalRule':
        return [el('hr', {})];
      case 'tabs':
        return [el('div', { className: ['tabs'] }, blocks(n.content))];
      case 'tab':
        return [
          el('section', { className: ['tab'] }, [
            el('div', { className: ['tab-title'] }, [txt(String(a.title ?? ''))]),
            el('div', { className: ['tab-body'] }, blocks(n.content)),
          ]),
        ];
      case 'details': {
        const [summary, content] = n.content ?? [];
        return [el('details', {}, [el('summary', {}, [txt(summary ? inlineText(summary) : '')]), ...blocks(content?.content)])];
      }
      case 'embed': {
        const url = resolveHref(a.url, links);
        if (!url) return [];
        return [
          el('div', { className: ['embed'] }, [
            el('a', { href: url, className: ['embed-link'], rel: ['noopener', 'noreferrer'] }, [txt(String(a.caption || url))]),
          ]),
        ];
      }
      case 'contentRef': {
        const href = resolveHref(a.href, links);
        if (!href) return [];
        return [
          el('a', { href, className: ['content-ref'] }, [
            el('span', { className: ['content-ref-title'] }, [txt(String(a.title || href))]),
            el('span', { className: ['content-ref-arrow'], ariaHidden: 'true' }, [txt('→')]),
          ]),
        ];
      }
      case 'stepper':
        return [el('ol', { className: ['stepper'] }, blocks(n.content))];
      case 'step':
        return [el('li', { className: ['step'] }, blocks(n.content))];
      case 'doc':
        return blocks(n.content);
      default:
        // A node this renderer does not know: keep its text, drop its shape.
        return n.content ? blocks(n.content) : [];
    }
  };

  const tree: Root = { type: 'root', children: blocks(body.type === 'doc' ? body.content : [body]) };
  const clean = processor.runSync(tree) as Root;
  return { html: processor.stringify(clean), outline };
}

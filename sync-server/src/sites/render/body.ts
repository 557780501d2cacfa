import { inlineText } from '@quire/shared/content/anchors';
import type { NodeJSON } from '@quire/shared/content/json';
import { slugify, uniqueSlug } from '@quire/shared/content/slugs';
import { isSafeUrl, parseTarget } from '@quire/shared/content/targets';
import type { Element, ElementContent, Root } from 'hast';
import { isRelativePath } from '../assetPaths';
import { embedInfo } from './embeds';
import { highlightLines } from './highlight';
import { texToMathml } from './math';
import { htmlFragment, sanitizeToHtml } from './sanitize';

/**
 * Page bodies to HTML. The body (ProseMirror JSON of the content model) is turned into an
 * HTML tree node by node, so text is never parsed as markup; raw HTML an import kept
 * (`htmlBlock`, `htmlInline`) is parsed into the same tree; the whole tree then goes
 * through rehype-sanitize with an allow-list (see sanitize.ts): whatever an editor or an
 * import put in a body, no script, event handler, `javascript:` URL or foreign element
 * reaches a reader. Nodes this renderer does not know show their content.
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

/** A space file shown as an image: its URL, resized variants and intrinsic size. */
export interface ImageSource {
  src: string;
  srcSet?: string;
  width?: number;
  height?: number;
}

/** How targets inside the body become URLs (and cards) of the published site. */
export interface LinkResolver {
  /** URL of a page of the same space (and heading), or undefined when it is not published. */
  page(pageId: string, anchor: string | null): string | undefined;
  /** Title and description of a page, for content-reference cards. */
  pageInfo?(pageId: string): { title: string; description: string; emoji?: string | null } | undefined;
  /** URL of a space file. */
  file(fileId: string): string | undefined;
  /** Name, size and type of a space file, for file blocks. */
  fileInfo?(fileId: string): { name: string; size?: number; contentType: string } | undefined;
  /** A space image with its resized variants. */
  image?(fileId: string): ImageSource | undefined;
  /** The space file a path written in raw HTML names (`.gitbook/assets/x.png`), by id. */
  asset?(path: string): string | undefined;
  /** An OpenAPI operation block, already rendered, or undefined when its spec is unknown. */
  openapi?(attrs: Record<string, unknown>): ElementContent[] | undefined;
  /** URLs of a Mermaid diagram drawn on the server (one per theme) and its size, or undefined when it cannot be drawn. */
  diagram?(source: string): { light: string; dark: string; width: number; height: number } | undefined;
  /** Links to other hosts open in a new tab when the site says so. */
  externalTarget: 'self' | 'blank';
}

export const el = (tagName: string, properties: Element['properties'], children: ElementContent[] = []): Element => ({
  type: 'element',
  tagName,
  properties,
  children,
});
export const txt = (value: string): ElementContent => ({ type: 'text', value });

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
    case 'path': {
      // A repository path an import left as written: a file of the space, or nowhere.
      const fileId = links.asset?.(t.path);
      return fileId ? links.file(fileId) : undefined;
    }
  }
}

function isExternal(url: string): boolean {
  return /^https?:/i.test(url);
}

export function formatSize(bytes: number | undefined): string {
  if (bytes === undefined || !Number.isFinite(bytes)) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** A column width as one of the grid's steps (the CSP allows no inline styles). */
function widthClass(width: unknown): string | undefined {
  const n = typeof width === 'number' ? width : Number.parseFloat(String(width ?? ''));
  if (!Number.isFinite(n) || n <= 0 || n >= 100) return undefined;
  const steps = [20, 25, 33, 40, 50, 60, 67, 75, 80];
  const nearest = steps.reduce((a, b) => (Math.abs(b - n) < Math.abs(a - n) ? b : a));
  return `w-${nearest}`;
}

const HTML_HEADINGS: Record<string, number> = { h1: 1, h2: 1, h3: 2, h4: 3, h5: 4, h6: 4 };

export interface BodyTree {
  children: ElementContent[];
  outline: OutlineEntry[];
  /** MathML per `span.math-slot` (generated by KaTeX, put in after sanitizing). */
  math: string[];
}

/** A body as an HTML tree (not yet sanitized): for pages, and for API references that embed descriptions. */
export function bodyTree(body: NodeJSON, links: LinkResolver, taken = new Set<string>()): BodyTree {
  const outline: OutlineEntry[] = [];
  const math: string[] = [];

  const anchorFor = (title: string, id: unknown): string => {
    // As the content model allocates them (AnchorAllocator), so search results and links agree.
    const anchor = typeof id === 'string' && id && !taken.has(id) ? id : uniqueSlug(slugify(title) || 'section', taken);
    taken.add(anchor);
    return anchor;
  };

  const mathSlot = (tex: unknown, display: boolean): ElementContent => {
    math.push(texToMathml(String(tex ?? ''), display));
    return el('span', { className: ['math-slot'], dataSlot: String(math.length - 1) });
  };

  /** Raw HTML: parsed, headings given anchors and outline entries; the sanitizer runs later on the whole tree. */
  const rawHtml = (html: unknown): ElementContent[] => {
    const nodes = htmlFragment(String(html ?? ''));
    const walk = (list: ElementContent[]) => {
      for (const n of list) {
        if (n.type !== 'element') continue;
        linkHtml(n);
        const level = HTML_HEADINGS[n.tagName];
        if (level) {
          const title = textOf(n).trim();
          if (title) {
            const anchor = anchorFor(title, n.properties.id);
            n.properties.id = anchor;
            n.tagName = `h${Math.min(level + 1, 6)}`;
            outline.push({ anchor, title, level });
          }
        }
        walk(n.children);
      }
    };
    walk(nodes);
    return nodes;
  };

  /** Targets in raw HTML: paths of the repository and content targets become the site's URLs; dead ones are dropped. */
  const linkHtml = (n: Element) => {
    const p = n.properties;
    const target = (v: unknown): { url?: string; fileId?: string } | undefined => {
      if (typeof v !== 'string' || !v.trim()) return undefined;
      const value = v.trim();
      if (/^(page|file):/.test(value)) {
        const t = parseTarget(value);
        return { url: resolveHref(value, links), fileId: t.kind === 'file' ? t.fileId : undefined };
      }
      if (isRelativePath(value)) {
        const fileId = links.asset?.(value);
        return { url: fileId ? links.file(fileId) : undefined, fileId };
      }
      return undefined;
    };
    if ((n.tagName === 'img' || n.tagName === 'source') && (p.src !== undefined || p.srcSet !== undefined)) {
      const t = target(n.tagName === 'img' ? p.src : String(p.srcSet ?? '').split(/\s+/)[0]);
      if (!t) return;
      const local = t.fileId ? links.image?.(t.fileId) : undefined;
      if (n.tagName === 'source') {
        p.srcSet = t.url;
        return;
      }
      p.src = local?.src ?? t.url;
      if (local?.srcSet) {
        p.srcSet = local.srcSet;
        p.sizes = '(max-width: 820px) 100vw, 780px';
      }
      if (local?.width && local.height) {
        const shown = Number(p.width) > 0 ? Number(p.width) : local.width;
        p.width = shown;
        p.height = Math.round((local.height * shown) / local.width);
      }
      p.loading = 'lazy';
      p.decoding = 'async';
    } else if (n.tagName === 'a' && p.href !== undefined) {
      const t = target(p.href);
      if (t) p.href = t.url;
    }
  };

  const inline = (nodes: NodeJSON[] | undefined): ElementContent[] => {
    const out: ElementContent[] = [];
    for (const n of nodes ?? []) {
      if (n.type === 'hardBreak') {
        out.push(el('br', {}));
        continue;
      }
      if (n.type === 'inlineImage') {
        const img = imageElement(n.attrs ?? {}, 'inline');
        if (img) out.push(img);
        continue;
      }
      if (n.type === 'htmlInline') {
        out.push(...rawHtml(n.attrs?.html));
        continue;
      }
      if (n.type === 'mathInline') {
        out.push(mathSlot(n.attrs?.tex, false));
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

  const imageElement = (a: Record<string, unknown>, kind: 'block' | 'inline'): Element | undefined => {
    const target = typeof a.src === 'string' ? parseTarget(a.src) : undefined;
    const fileId = target?.kind === 'file' ? target.fileId : target?.kind === 'path' ? links.asset?.(target.path) : undefined;
    const local = fileId && links.image ? links.image(fileId) : undefined;
    const src = local?.src ?? resolveHref(a.src, links);
    if (!src) return undefined;
    const wanted = typeof a.width === 'number' && a.width > 0 ? a.width : undefined;
    let width = local?.width;
    let height = local?.height;
    if (wanted && width && height) {
      height = Math.round((height * wanted) / width);
      width = wanted;
    } else if (wanted) width = wanted;
    return el('img', {
      src,
      srcSet: local?.srcSet,
      sizes: local?.srcSet ? (kind === 'inline' ? '(max-width: 820px) 90vw, 400px' : '(max-width: 820px) 100vw, 780px') : undefined,
      alt: String(a.alt ?? ''),
      title: a.title ? String(a.title) : undefined,
      width,
      height,
      loading: 'lazy',
      decoding: 'async',
    });
  };

  const blocks = (nodes: NodeJSON[] | undefined): ElementContent[] => (nodes ?? []).flatMap((n) => block(n));

  const figure = (media: ElementContent, caption: unknown): ElementContent => {
    const children: ElementContent[] = [media];
    if (typeof caption === 'string' && caption) children.push(el('figcaption', {}, [txt(caption)]));
    return el('figure', {}, children);
  };

  const codeBlock = (a: Record<string, unknown>, code: string): ElementContent => {
    const language = typeof a.language === 'string' && /^[\w+#.-]{1,32}$/.test(a.language) ? a.language : undefined;
    const lines = highlightLines(code, language);
    const pre = el(
      'pre',
      { className: ['code', ...(a.wrap ? ['wrap'] : []), ...(a.lineNumbers ? ['numbered'] : [])], dataLanguage: language },
      [
        el(
          'code',
          { className: language ? [`language-${language}`, 'hljs'] : ['hljs'] },
          lines.flatMap((l, i) => (i ? [txt('\n'), l] : [l])),
        ),
      ],
    );
    const head: ElementContent[] = [];
    if (a.title || language) {
      head.push(
        el('div', { className: ['code-head'] }, [
          el('span', { className: ['code-title'] }, [txt(String(a.title || language))]),
          el('button', { className: ['copy'], type: 'button', ariaLabel: 'Copy' }, [txt('Copy')]),
        ]),
      );
    }
    return el('div', { className: ['code-block'] }, [...head, pre]);
  };

  const block = (n: NodeJSON): ElementContent[] => {
    const a = n.attrs ?? {};
    switch (n.type) {
      case 'paragraph':
        return [el('p', {}, inline(n.content))];
      case 'heading': {
        const title = inlineText(n).trim();
        const anchor = anchorFor(title, a.id);
        const level = Math.min(Math.max(Number(a.level ?? 1) || 1, 1), 4);
        outline.push({ anchor, title, level });
        return [
          el(`h${level + 1}`, { id: anchor, className: ['heading'] }, [
            ...inline(n.content),
            el('a', { href: `#${encodeURIComponent(anchor)}`, className: ['anchor'], ariaHidden: 'true' }, [txt('#')]),
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
        const code = inlineText(n);
        if (a.language === 'mermaid') {
          const source = el('pre', { className: ['diagram-source'] }, [el('code', {}, [txt(code)])]);
          const drawn = links.diagram?.(code);
          // A kind of diagram the server cannot draw reads as its source: nodes and arrows in order.
          if (!drawn) return [el('figure', { className: ['diagram', 'mermaid'] }, [el('figcaption', {}, [txt('Diagram')]), source])];
          const img = (theme: 'light' | 'dark') =>
            el('img', {
              className: [`diagram-${theme}`],
              src: drawn[theme],
              alt: 'Diagram (its source follows)',
              width: drawn.width,
              height: drawn.height,
              loading: 'lazy',
              decoding: 'async',
            });
          return [
            el('figure', { className: ['diagram', 'mermaid', 'drawn'] }, [
              el('figcaption', {}, [txt('Diagram')]),
              el('div', { className: ['diagram-drawing'] }, [img('light'), img('dark')]),
              el('details', { className: ['diagram-details'] }, [el('summary', {}, [txt('Source')]), source]),
            ]),
          ];
        }
        return [codeBlock(a, code)];
      }
      case 'hint': {
        const style = ['info', 'success', 'warning', 'danger'].includes(String(a.style)) ? String(a.style) : 'info';
        return [
          el('div', { className: ['hint', `hint-${style}`], role: 'note', ariaLabel: style }, [
            el('span', { className: ['hint-icon'], ariaHidden: 'true' }),
            el('div', { className: ['hint-body'] }, blocks(n.content)),
          ]),
        ];
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
        const img = imageElement(a, 'block');
        if (!img) return [];
        const dark = resolveHref(a.srcDark, links);
        const media = dark ? el('picture', {}, [el('source', { srcSet: dark, media: '(prefers-color-scheme: dark)' }), img]) : img;
        return [figure(media, a.caption)];
      }
      case 'file': {
        const href = a.fileId ? links.file(String(a.fileId)) : resolveHref(a.src, links);
        if (!href) return [];
        const info = a.fileId ? links.fileInfo?.(String(a.fileId)) : undefined;
        const name = info?.name ?? (typeof a.src === 'string' ? (a.src.split('/').pop() ?? a.src) : 'file');
        const meta = [formatSize(info?.size), info?.contentType].filter(Boolean).join(' · ');
        return [
          el('a', { href, className: ['file-block'], download: name }, [
            el('span', { className: ['file-icon'], ariaHidden: 'true' }),
            el('span', { className: ['file-text'] }, [
              el('span', { className: ['file-name'] }, [txt(String(a.caption || name))]),
              el('span', { className: ['file-meta'] }, [txt([a.caption ? name : '', meta].filter(Boolean).join(' · '))]),
            ]),
            el('span', { className: ['file-download'] }, [txt('Download')]),
          ]),
        ];
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
        const info = isExternal(url) ? embedInfo(url) : undefined;
        return [
          el('div', { className: ['embed'], dataPlayer: info?.player }, [
            el('a', { href: url, className: ['embed-card'], rel: ['noopener', 'noreferrer'] }, [
              el('span', { className: ['embed-icon', ...(info?.player ? ['play'] : [])], ariaHidden: 'true' }),
              el('span', { className: ['embed-text'] }, [
                el('span', { className: ['embed-title'] }, [txt(String(a.caption || url))]),
                el('span', { className: ['embed-provider'] }, [txt(info ? info.provider : url)]),
              ]),
            ]),
          ]),
        ];
      }
      case 'contentRef': {
        const href = resolveHref(a.href, links);
        if (!href) return [];
        const target = typeof a.href === 'string' ? parseTarget(a.href) : undefined;
        const info = target?.kind === 'page' ? links.pageInfo?.(target.pageId) : undefined;
        const title = info?.title || String(a.title || href);
        let detail = info?.description ?? '';
        if (!info && isExternal(href)) detail = embedInfo(href)?.host ?? '';
        return [
          el('a', { href, className: ['content-ref'] }, [
            el('span', { className: ['content-ref-text'] }, [
              el('span', { className: ['content-ref-title'] }, [...(info?.emoji ? [txt(`${info.emoji} `)] : []), txt(title)]),
              ...(detail ? [el('span', { className: ['content-ref-description'] }, [txt(detail)])] : []),
            ]),
            el('span', { className: ['content-ref-arrow'], ariaHidden: 'true' }, [txt('→')]),
          ]),
        ];
      }
      case 'stepper':
        return [el('ol', { className: ['stepper'] }, blocks(n.content))];
      case 'step':
        return [el('li', { className: ['step'] }, blocks(n.content))];
      case 'columns':
        return [el('div', { className: ['columns'] }, blocks(n.content))];
      case 'column': {
        const w = widthClass(a.width);
        return [el('div', { className: ['column', ...(w ? [w] : [])] }, blocks(n.content))];
      }
      case 'updates':
        return [el('div', { className: ['updates'] }, blocks(n.content))];
      case 'update': {
        const date = typeof a.date === 'string' ? a.date : '';
        const title = typeof a.title === 'string' && a.title ? a.title : '';
        const head: ElementContent[] = [];
        if (title) {
          const anchor = anchorFor(title, null);
          outline.push({ anchor, title, level: 1 });
          head.push(el('h2', { id: anchor, className: ['heading', 'update-title'] }, [txt(title)]));
        }
        return [
          el('section', { className: ['update'] }, [
            el('div', { className: ['update-date'] }, [
              el('time', { dateTime: /^\d{4}-\d{2}-\d{2}/.test(date) ? date : undefined }, [txt(date)]),
            ]),
            el('div', { className: ['update-body'] }, [...head, ...blocks(n.content)]),
          ]),
        ];
      }
      case 'math':
        return [el('div', { className: ['math-block'] }, [mathSlot(a.tex, true)])];
      case 'htmlBlock':
        return [el('div', { className: ['html-block'] }, rawHtml(a.html))];
      case 'openapiOperation': {
        const rendered = links.openapi?.(a);
        if (rendered) return rendered;
        const label = `${String(a.method ?? '').toUpperCase()} ${String(a.path ?? '')}`.trim();
        return [
          el('div', { className: ['hint', 'hint-warning'], role: 'note' }, [
            el('span', { className: ['hint-icon'], ariaHidden: 'true' }),
            el('div', { className: ['hint-body'] }, [
              el('p', {}, [
                txt('This API operation could not be shown: its specification is not available. '),
                el('code', {}, [txt(label)]),
              ]),
            ]),
          ]),
        ];
      }
      case 'doc':
        return blocks(n.content);
      default:
        // A node this renderer does not know: keep its content, drop its shape.
        if (typeof a.html === 'string') return rawHtml(a.html);
        if (n.text) return [txt(n.text)];
        return n.content ? (n.content.some((c) => c.type === 'text') ? [el('p', {}, inline(n.content))] : blocks(n.content)) : [];
    }
  };

  const children = blocks(body.type === 'doc' ? body.content : [body]);
  return { children, outline, math };
}

function textOf(n: ElementContent): string {
  if (n.type === 'text') return n.value;
  if (n.type === 'element') return n.children.map(textOf).join('');
  return '';
}

/** Sanitized HTML of a tree, with KaTeX's MathML put in its slots. */
export function treeToHtml(children: ElementContent[], math: string[]): string {
  const html = sanitizeToHtml({ type: 'root', children } as Root);
  if (!math.length) return html;
  // Only the renderer makes `math-slot` spans: classes of raw HTML are filtered (sanitize.ts).
  return html.replace(/<span class="math-slot" data-slot="(\d+)"><\/span>/g, (_, i: string) => math[Number(i)] ?? '');
}

export function renderBody(body: NodeJSON, links: LinkResolver): RenderedBody {
  const tree = bodyTree(body, links);
  return { html: treeToHtml(tree.children, tree.math), outline: tree.outline };
}

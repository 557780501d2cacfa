import { type HTMLElement, type Node, NodeType, parse } from 'node-html-parser';
import type { MarkJSON, NodeJSON } from '@quire/shared/content/index';

/** What a crawled HTML page gives: its title, its body as page nodes, and the links it holds. */
export interface HtmlPage {
  title: string;
  body: NodeJSON;
  /** Absolute URLs of every `<a href>` in the content, in order. */
  links: string[];
}

/** Elements that are never content: page chrome, scripts, forms. */
const CHROME =
  'script, style, noscript, template, nav, header, footer, aside, form, iframe, svg, button, [role=navigation], [aria-hidden=true]';

const BLOCK_TAGS = new Set(
  'p h1 h2 h3 h4 h5 h6 ul ol pre blockquote table hr figure div section article main details dl img video'.split(' '),
);

/**
 * Turns an HTML page into a page body. The main content (`<main>`, `<article>`, else
 * `<body>`) is read without the site's navigation; headings, paragraphs, lists, code,
 * quotes, tables and images become their page nodes, and links and images are made
 * absolute against the page's URL. Anything else contributes its text only.
 */
export function htmlToPage(html: string, pageUrl: string): HtmlPage {
  const root = parse(html, { comment: false, blockTextElements: { script: true, style: true, noscript: true } });
  const title = (root.querySelector('title')?.text ?? '').replace(/\s+/g, ' ').trim();
  const main =
    root.querySelector('main') ?? root.querySelector('article') ?? root.querySelector('[role=main]') ?? root.querySelector('body') ?? root;
  for (const el of main.querySelectorAll(CHROME)) el.remove();
  const links: string[] = [];
  const ctx = { base: pageUrl, links };
  const content = blocks(main.childNodes, ctx);
  const h1 = main.querySelector('h1')?.text.replace(/\s+/g, ' ').trim();
  return { title: h1 || title.split(/\s+[|·–—-]\s+/)[0] || title || 'Untitled', body: { type: 'doc', content }, links };
}

interface Ctx {
  base: string;
  links: string[];
}

function absolute(href: string | undefined, base: string): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

function isElement(n: Node): n is HTMLElement {
  return n.nodeType === NodeType.ELEMENT_NODE;
}

function tag(n: HTMLElement): string {
  return (n.rawTagName ?? '').toLowerCase();
}

/** Block children of a container; runs of inline content become paragraphs. */
function blocks(nodes: Node[], ctx: Ctx): NodeJSON[] {
  const out: NodeJSON[] = [];
  let inline: NodeJSON[] = [];
  const flush = () => {
    const trimmed = trimInline(inline);
    if (trimmed.length) out.push({ type: 'paragraph', content: trimmed });
    inline = [];
  };
  for (const n of nodes) {
    if (isElement(n) && BLOCK_TAGS.has(tag(n))) {
      flush();
      out.push(...block(n, ctx));
    } else {
      inline.push(...inlines([n], ctx, []));
    }
  }
  flush();
  return out;
}

function block(el: HTMLElement, ctx: Ctx): NodeJSON[] {
  const t = tag(el);
  switch (t) {
    case 'p':
      return paragraph(el.childNodes, ctx);
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      const content = trimInline(inlines(el.childNodes, ctx, []));
      return content.length ? [{ type: 'heading', attrs: { level: Math.min(Number(t[1]), 3) }, content }] : [];
    }
    case 'ul':
    case 'ol': {
      const items = el.childNodes.filter((c): c is HTMLElement => isElement(c) && tag(c) === 'li');
      if (!items.length) return [];
      const list: NodeJSON = {
        type: t === 'ol' ? 'orderedList' : 'bulletList',
        content: items.map((li) => {
          const content = blocks(li.childNodes, ctx);
          return { type: 'listItem', content: content.length ? content : [{ type: 'paragraph' }] };
        }),
      };
      if (t === 'ol' && Number(el.getAttribute('start')) > 1) list.attrs = { start: Number(el.getAttribute('start')) };
      return [list];
    }
    case 'pre': {
      const code = el.querySelector('code');
      const cls = `${code?.getAttribute('class') ?? ''} ${el.getAttribute('class') ?? ''}`;
      const language = /(?:language|lang)-([\w+#-]+)/.exec(cls)?.[1] ?? null;
      const text = (code ?? el).text.replace(/\n$/, '');
      return [{ type: 'codeBlock', attrs: { language }, content: text ? [{ type: 'text', text }] : [] }];
    }
    case 'blockquote': {
      const content = blocks(el.childNodes, ctx);
      return content.length ? [{ type: 'blockquote', content }] : [];
    }
    case 'hr':
      return [{ type: 'horizontalRule' }];
    case 'img': {
      const src = absolute(el.getAttribute('src'), ctx.base);
      return src ? [{ type: 'image', attrs: { src, alt: el.getAttribute('alt') || null } }] : [];
    }
    case 'figure': {
      const img = el.querySelector('img');
      const src = absolute(img?.getAttribute('src'), ctx.base);
      const caption = el.querySelector('figcaption')?.text.trim() || null;
      if (src) return [{ type: 'image', attrs: { src, alt: img?.getAttribute('alt') || null, caption } }];
      return blocks(el.childNodes, ctx);
    }
    case 'table':
      return table(el, ctx);
    case 'details': {
      const summary = el.querySelector('summary');
      const title = summary?.text.trim() ?? '';
      summary?.remove();
      const content = blocks(el.childNodes, ctx);
      return [
        {
          type: 'details',
          content: [
            { type: 'detailsSummary', content: title ? [{ type: 'text', text: title }] : [] },
            { type: 'detailsContent', content: content.length ? content : [{ type: 'paragraph' }] },
          ],
        },
      ];
    }
    case 'dl':
      return el.childNodes.filter(isElement).flatMap((c) => paragraph(c.childNodes, ctx));
    default:
      return blocks(el.childNodes, ctx);
  }
}

function paragraph(nodes: Node[], ctx: Ctx): NodeJSON[] {
  // A <p> holding blocks (invalid HTML that browsers accept) is read as those blocks.
  if (nodes.some((n) => isElement(n) && BLOCK_TAGS.has(tag(n)) && tag(n) !== 'img')) return blocks(nodes, ctx);
  const content = trimInline(inlines(nodes, ctx, []));
  return content.length ? [{ type: 'paragraph', content }] : [];
}

function table(el: HTMLElement, ctx: Ctx): NodeJSON[] {
  const rows = el.querySelectorAll('tr');
  if (!rows.length) return [];
  return [
    {
      type: 'table',
      content: rows.map((tr) => ({
        type: 'tableRow',
        content: tr.childNodes
          .filter((c): c is HTMLElement => isElement(c) && (tag(c) === 'td' || tag(c) === 'th'))
          .map((cell) => {
            const content = blocks(cell.childNodes, ctx);
            return { type: tag(cell) === 'th' ? 'tableHeader' : 'tableCell', content: content.length ? content : [{ type: 'paragraph' }] };
          }),
      })),
    },
  ];
}

const MARK_TAGS: Record<string, string> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  code: 'code',
  s: 'strike',
  del: 'strike',
  strike: 'strike',
};

function inlines(nodes: Node[], ctx: Ctx, marks: MarkJSON[]): NodeJSON[] {
  const out: NodeJSON[] = [];
  for (const n of nodes) {
    if (n.nodeType === NodeType.TEXT_NODE) {
      const text = n.text.replace(/\s+/g, ' ');
      if (text) out.push(marks.length ? { type: 'text', text, marks } : { type: 'text', text });
      continue;
    }
    if (!isElement(n)) continue;
    const t = tag(n);
    if (t === 'br') {
      out.push({ type: 'hardBreak' });
    } else if (t === 'img') {
      const src = absolute(n.getAttribute('src'), ctx.base);
      if (src) out.push({ type: 'inlineImage', attrs: { src, alt: n.getAttribute('alt') || null } });
    } else if (t === 'a') {
      const href =
        absolute(n.getAttribute('href'), ctx.base) ?? (n.getAttribute('href')?.startsWith('#') ? n.getAttribute('href') : undefined);
      if (href && !href.startsWith('#')) ctx.links.push(href);
      out.push(...inlines(n.childNodes, ctx, href ? [{ type: 'link', attrs: { href } }, ...marks] : marks));
    } else if (MARK_TAGS[t]) {
      out.push(...inlines(n.childNodes, ctx, [...marks, { type: MARK_TAGS[t] as string }]));
    } else {
      out.push(...inlines(n.childNodes, ctx, marks));
    }
  }
  return out;
}

/** Drops the whitespace HTML indentation leaves at both ends of a block. */
function trimInline(nodes: NodeJSON[]): NodeJSON[] {
  const out = nodes.map((n) => ({ ...n }));
  while (out.length && out[0]?.type === 'text' && !(out[0].text ?? '').trim()) out.shift();
  while (out.length && out[out.length - 1]?.type === 'text' && !(out[out.length - 1]?.text ?? '').trim()) out.pop();
  if (out[0]?.type === 'text') out[0].text = (out[0].text ?? '').replace(/^\s+/, '');
  const last = out[out.length - 1];
  if (last?.type === 'text') last.text = (last.text ?? '').replace(/\s+$/, '');
  return out.filter((n) => n.type !== 'text' || n.text);
}

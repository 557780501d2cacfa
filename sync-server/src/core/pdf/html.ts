import type { NodeJSON } from '@quire/shared/content/json';
import type { Element, ElementContent, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import { unified } from 'unified';

type Mark = NonNullable<NodeJSON['marks']>[number];

/** HTML kept as source in a body goes through the same kind of allow-list as on sites before anything of it is printed. */
const parser = unified()
  .use(rehypeParse, { fragment: true })
  .use(rehypeSanitize, {
    ...defaultSchema,
    // Figures keep their shape, so a caption prints as the caption of its picture.
    tagNames: [...(defaultSchema.tagNames ?? []), 'figure', 'figcaption', 'picture'],
    clobberPrefix: '',
    // Card tables print as cards; icons (`<i class="fa-globe">:globe:</i>`) are recognised to be left out.
    attributes: {
      ...defaultSchema.attributes,
      table: [...(defaultSchema.attributes?.table ?? []), ['dataView', 'cards']],
      i: [...(defaultSchema.attributes?.i ?? []), ['className', /^fa/]],
    },
    // Targets inside the space (`page:`, `file:`) and inline image bytes are what the PDF resolves itself; nothing runs in it.
    protocols: {
      ...defaultSchema.protocols,
      href: [...(defaultSchema.protocols?.href ?? []), 'page', 'file'],
      src: ['http', 'https', 'file', 'data'],
    },
  });

function tree(html: string): Root {
  return parser.runSync(parser.parse(html)) as Root;
}

const BLOCK_NAMES =
  'p div section article figure figcaption center h1 h2 h3 h4 h5 h6 ul ol li table thead tbody tfoot tr td th pre blockquote hr details summary dl dt dd';
const BLOCK = new Set(BLOCK_NAMES.split(' '));

function inlines(nodes: ElementContent[], marks: Mark[] = []): NodeJSON[] {
  const out: NodeJSON[] = [];
  for (const n of nodes) {
    if (n.type === 'text') {
      const text = n.value.replace(/\s+/g, ' ');
      if (text) out.push({ type: 'text', text, ...(marks.length ? { marks } : {}) });
    } else if (n.type === 'element') {
      const tag = n.tagName;
      const add = (m: Mark) => [...marks, m];
      if (tag === 'br') out.push({ type: 'hardBreak' });
      else if (tag === 'img') {
        const alt = String(n.properties?.alt ?? '');
        out.push({ type: 'inlineImage', attrs: { src: String(n.properties?.src ?? ''), alt, title: null } });
      } else if (tag === 'strong' || tag === 'b') out.push(...inlines(n.children, add({ type: 'bold' })));
      else if (tag === 'i' && Array.isArray(n.properties?.className) && n.properties.className.length) continue;
      else if (tag === 'em' || tag === 'i') out.push(...inlines(n.children, add({ type: 'italic' })));
      else if (tag === 'code' || tag === 'kbd' || tag === 'samp') out.push(...inlines(n.children, add({ type: 'code' })));
      else if (tag === 's' || tag === 'del' || tag === 'strike') out.push(...inlines(n.children, add({ type: 'strike' })));
      else if (tag === 'a' && typeof n.properties?.href === 'string')
        out.push(...inlines(n.children, add({ type: 'link', attrs: { href: n.properties.href, title: null } })));
      else out.push(...inlines(n.children, marks));
    }
  }
  return out;
}

function paragraph(content: NodeJSON[]): NodeJSON | null {
  const trimmed = content.filter((c, i, all) => !(c.type === 'text' && !c.text?.trim() && (i === 0 || i === all.length - 1)));
  return trimmed.length ? { type: 'paragraph', content: trimmed } : null;
}

function cellsOf(row: Element): NodeJSON[] {
  return row.children
    .filter((c): c is Element => c.type === 'element' && (c.tagName === 'td' || c.tagName === 'th'))
    .map((c) => ({
      type: c.tagName === 'th' ? 'tableHeader' : 'tableCell',
      content: blocks(c.children).length ? blocks(c.children) : [{ type: 'paragraph' }],
    }));
}

function rowsOf(el: Element): Element[] {
  const rows: Element[] = [];
  for (const c of el.children) {
    if (c.type !== 'element') continue;
    if (c.tagName === 'tr') rows.push(c);
    else if (c.tagName === 'thead' || c.tagName === 'tbody' || c.tagName === 'tfoot') rows.push(...rowsOf(c));
  }
  return rows;
}

/** Block nodes of the content model for sanitized HTML: tables keep their grid, images their source, links their target. */
function blocks(nodes: ElementContent[]): NodeJSON[] {
  const out: NodeJSON[] = [];
  let run: ElementContent[] = [];
  const flush = () => {
    const p = paragraph(inlines(run));
    if (p) out.push(p);
    run = [];
  };
  for (const n of nodes) {
    if (n.type !== 'element' || !BLOCK.has(n.tagName)) {
      // An image that starts a line of its own (`<figure><img>`, `<div align><img>`) is a picture, not a word.
      const alone = run.every((r) => r.type === 'text' && !r.value.trim());
      if (n.type === 'element' && n.tagName === 'img' && alone) {
        run = [];
        out.push({ type: 'image', attrs: { src: String(n.properties?.src ?? ''), alt: String(n.properties?.alt ?? '') || null } });
        continue;
      }
      run.push(n);
      continue;
    }
    flush();
    const tag = n.tagName;
    if (/^h[1-6]$/.test(tag))
      out.push({ type: 'heading', attrs: { level: Math.min(Number(tag[1]) - 1 || 1, 4) }, content: inlines(n.children) });
    else if (tag === 'ul' || tag === 'ol')
      out.push({
        type: tag === 'ul' ? 'bulletList' : 'orderedList',
        content: n.children
          .filter((c): c is Element => c.type === 'element' && c.tagName === 'li')
          .map((li) => ({ type: 'listItem', content: blocks(li.children).length ? blocks(li.children) : [{ type: 'paragraph' }] })),
      });
    else if (tag === 'table') {
      const rows = rowsOf(n).map((r) => ({ type: 'tableRow', content: cellsOf(r) }));
      const cards = n.properties?.dataView === 'cards';
      if (rows.length) out.push({ type: 'table', ...(cards ? { attrs: { view: 'cards' } } : {}), content: rows });
    } else if (tag === 'pre') {
      const text = textOf(n);
      out.push({ type: 'codeBlock', attrs: { language: null }, content: text ? [{ type: 'text', text }] : [] });
    } else if (tag === 'blockquote') out.push({ type: 'blockquote', content: blocks(n.children) });
    else if (tag === 'hr') out.push({ type: 'horizontalRule' });
    else if (tag === 'figure' && figureImage(n)) out.push(figureImage(n) as NodeJSON);
    else out.push(...blocks(n.children));
  }
  flush();
  return out;
}

/**
 * A figure of one picture (`<figure><img><figcaption>`, an `<img>` in a `<picture>`) as one
 * image with its caption, as sites show it: the caption under it, never the alt text as well.
 */
function figureImage(figure: Element): NodeJSON | undefined {
  const images: Element[] = [];
  const find = (list: ElementContent[]) => {
    for (const c of list) {
      if (c.type !== 'element' || c.tagName === 'figcaption') continue;
      if (c.tagName === 'img') images.push(c);
      else find(c.children);
    }
  };
  find(figure.children);
  const [img] = images;
  if (!img || images.length > 1) return undefined;
  const caption = figure.children.find((c): c is Element => c.type === 'element' && c.tagName === 'figcaption');
  const text = caption ? textOf(caption).replace(/\s+/g, ' ').trim() : '';
  return {
    type: 'image',
    attrs: { src: String(img.properties?.src ?? ''), alt: String(img.properties?.alt ?? '') || null, caption: text || null },
  };
}

function textOf(n: ElementContent): string {
  if (n.type === 'text') return n.value;
  if (n.type === 'element') return n.children.map(textOf).join('');
  return '';
}

/** An `htmlBlock`'s HTML as body blocks, sanitized. */
export function htmlToBlocks(html: string): NodeJSON[] {
  return blocks(tree(html).children as ElementContent[]);
}

/** An `htmlInline`'s HTML as inline nodes, sanitized. */
export function htmlToInlines(html: string): NodeJSON[] {
  return inlines(tree(html).children as ElementContent[]);
}

import type { Token } from 'markdown-it';
import type { NodeJSON } from '../json';
import { normalizeBody } from '../normalize';
import { isSafeUrl } from '../targets';
import { type FrontMatter, splitFrontMatter } from './frontMatter';
import { type AtomMeta, type ContainerMeta, type FigureMeta, htmlAttributes, type MathMeta, type UnknownTagMeta } from './gitbookBlocks';
import { markdownIt } from './markdownIt';
import { inlineNodes } from './parseInline';

/** A page imported from markdown: its body, the front matter that sets page fields, and what had no node to go to. */
export interface MarkdownImport {
  doc: NodeJSON;
  frontMatter: FrontMatter;
  /** Source kept only as literal text (an unknown `{% tag %}`, an unsafe target), with its 1-based line. */
  unmapped: UnmappedSource[];
}

/** A piece of markdown the parser could not map to a node of its own. */
export interface UnmappedSource {
  line: number;
  source: string;
  reason: string;
}

const TASK_MARKER = /^\[([ xX])\](?: |$)/;

/**
 * Parses GitBook-flavoured markdown into a page body. HTML other than GitBook's
 * `<figure>`, `<details>` and `<br>` is kept as written in `htmlBlock` / `htmlInline`
 * nodes, which renderers pass through their sanitizer: an imported page loses none of
 * its markup and still never runs a script.
 */
export function markdownToBody(markdown: string): MarkdownImport {
  const { frontMatter, body } = splitFrontMatter(markdown);
  const firstLine = markdown.slice(0, markdown.length - body.length).split('\n').length;
  const builder = new BodyBuilder(firstLine);
  for (const token of markdownIt.parse(body, {})) builder.token(token);
  return { doc: normalizeBody(builder.root), frontMatter, unmapped: builder.unmapped };
}

const LIQUID_TEXT = /^\{%-?\s*(end)?([a-z][a-z0-9-]*)/;

class BodyBuilder {
  readonly root: NodeJSON = { type: 'doc', content: [] };
  readonly unmapped: UnmappedSource[] = [];
  private paragraphLine = 0;

  /** `firstLine`: the line of the source the body starts on (after front matter). */
  constructor(private readonly firstLine: number) {}

  private report(map: [number, number] | null | undefined, source: string, reason: string): void {
    const line = (map?.[0] ?? 0) + this.firstLine;
    this.unmapped.push({ line, source: source.split('\n', 1)[0] as string, reason });
  }
  private readonly stack: NodeJSON[] = [this.root];

  private get top(): NodeJSON {
    return this.stack[this.stack.length - 1] as NodeJSON;
  }

  private add(node: NodeJSON): void {
    const parent = this.top;
    if (parent.content) parent.content.push(node);
    else parent.content = [node];
  }

  private open(type: string, attrs?: Record<string, unknown>): void {
    const node: NodeJSON = attrs ? { type, attrs, content: [] } : { type, content: [] };
    this.add(node);
    this.stack.push(node);
  }

  private close(): NodeJSON {
    return (this.stack.length > 1 ? this.stack.pop() : this.root) as NodeJSON;
  }

  token(token: Token): void {
    switch (token.type) {
      case 'paragraph_open':
        this.paragraphLine = token.map?.[0] ?? 0;
        this.open('paragraph');
        break;
      case 'paragraph_close': {
        const paragraph = this.close();
        this.reportLiteralTags(paragraph);
        imageOnlyParagraphToImage(paragraph);
        break;
      }
      case 'heading_open':
        this.open('heading', { level: Number(token.tag.slice(1)) });
        break;
      case 'heading_close':
        takeHeadingAnchor(this.close());
        break;
      case 'blockquote_open':
        this.open('blockquote');
        break;
      case 'bullet_list_open':
        this.open('bulletList');
        break;
      case 'bullet_list_close':
        bulletListToTaskList(this.close());
        break;
      case 'ordered_list_open':
        this.open('orderedList', { start: Number(token.attrGet('start') ?? 1) });
        break;
      case 'list_item_open':
        this.open('listItem');
        break;
      case 'table_open':
        this.open('table');
        break;
      case 'tr_open':
        this.open('tableRow');
        break;
      case 'th_open':
      case 'td_open':
        this.open(token.type === 'th_open' ? 'tableHeader' : 'tableCell', { align: cellAlign(token) });
        this.open('paragraph');
        break;
      case 'th_close':
      case 'td_close':
        this.close();
        this.close();
        break;
      case 'thead_open':
      case 'thead_close':
      case 'tbody_open':
      case 'tbody_close':
        break;
      case 'inline':
        for (const node of inlineNodes(token.children ?? [])) this.add(node);
        break;
      case 'fence':
      case 'code_block':
        this.add(codeBlock(token));
        break;
      case 'hr':
        this.add({ type: 'horizontalRule' });
        break;
      case 'html_block': {
        const html = token.content.replace(/\s+$/, '');
        if (html) this.add({ type: 'htmlBlock', attrs: { html } });
        break;
      }
      case 'gitbook_math':
        this.add({ type: 'math', attrs: { tex: (token.meta as MathMeta).tex } });
        break;
      case 'gitbook_open':
        this.openContainer(token.meta as ContainerMeta);
        break;
      case 'gitbook_close':
        this.closeContainer(token.meta as ContainerMeta);
        break;
      case 'gitbook_atom': {
        const nodes = atomNodes(token.meta as AtomMeta);
        if (nodes.some((node) => node.type === 'paragraph')) {
          this.report(token.map, (token.meta as AtomMeta).source, 'its target is empty or not allowed');
        } else if ((token.meta as AtomMeta).name === 'swagger' && !(token.meta as AtomMeta).attrs.src) {
          this.report(
            token.map,
            (token.meta as AtomMeta).source,
            'an API operation described inline (no src) keeps only its path and method',
          );
        }
        for (const node of nodes) this.add(node);
        break;
      }
      case 'gitbook_figure':
        this.add(figureImage(token.meta as FigureMeta));
        break;
      case 'gitbook_unknown_open':
        this.report(
          token.map,
          (token.meta as UnknownTagMeta).source,
          `the block tag "${(token.meta as UnknownTagMeta).name}" is not known; its content is kept without it`,
        );
        break;
      case 'gitbook_unknown_close':
        break;
      case 'gitbook_details_open':
        this.open('details');
        {
          const meta = token.meta as { summary: string; html: string | null };
          this.add({ type: 'detailsSummary', ...(meta.html ? { attrs: { html: meta.html } } : {}), content: textNodes(meta.summary) });
        }
        this.open('detailsContent');
        break;
      case 'gitbook_details_close':
        this.close();
        this.close();
        break;
      default:
        if (token.nesting === -1) this.close();
        else if (token.nesting === 1) this.open(token.type);
    }
  }

  private openContainer(meta: ContainerMeta): void {
    const { name, attrs } = meta;
    if (name === 'hint') this.open('hint', { style: attrs.style });
    else if (name === 'column') this.open('column', { width: attrs.width ?? null });
    else if (name === 'update') this.open('update', { date: attrs.date ?? '', title: attrs.title ?? null });
    else if (name === 'tab') this.open('tab', { title: attrs.title ?? '' });
    else if (name === 'code') {
      this.open(CODE_WRAPPER, {
        title: attrs.title ?? null,
        lineNumbers: attrs.lineNumbers === 'true',
        wrap: attrs.overflow === 'wrap',
      });
    } else {
      this.open(name);
    }
  }

  /** A paragraph starting with `{% tag %}` is a block tag nothing here knows: kept as text, and said so. */
  private reportLiteralTags(paragraph: NodeJSON): void {
    const first = paragraph.content?.[0];
    const text = first?.type === 'text' && !first.marks ? (first.text ?? '') : '';
    const match = LIQUID_TEXT.exec(text);
    if (!match) return;
    this.report([this.paragraphLine, this.paragraphLine], text, `the block tag "${match[2]}" is kept as text`);
  }

  private closeContainer(meta: ContainerMeta): void {
    const node = this.close();
    if (meta.name !== 'code') return;
    const only = node.content?.length === 1 ? node.content[0] : undefined;
    if (only?.type !== 'codeBlock') return;
    // the wrapper's attributes belong to the code block it wraps; the normalizer unwraps anything else
    Object.assign(node, { ...only, attrs: { ...only.attrs, ...node.attrs } });
  }
}

/** A `{% code %}` wrapper while it is being built; not a body node. */
const CODE_WRAPPER = 'gitbookCodeWrapper';

function cellAlign(token: Token): string | null {
  return /text-align:\s*(left|center|right)/.exec(String(token.attrGet('style') ?? ''))?.[1] ?? null;
}

function codeBlock(token: Token): NodeJSON {
  const language = token.info.trim().split(/\s+/)[0] || null;
  const text = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
  return { type: 'codeBlock', attrs: { language }, content: textNodes(text) };
}

function textNodes(text: string): NodeJSON[] {
  return text ? [{ type: 'text', text }] : [];
}

/** Lines of text kept literally: each run of lines a paragraph, each line break a hard break. */
function literalParagraphs(source: string): NodeJSON[] {
  return source
    .split(/\n[ \t]*\n/)
    .map((chunk) =>
      chunk
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    )
    .filter((lines) => lines.length > 0)
    .map((lines) => ({
      type: 'paragraph',
      content: lines.flatMap((line, i): NodeJSON[] =>
        i === 0 ? [{ type: 'text', text: line }] : [{ type: 'hardBreak' }, { type: 'text', text: line }],
      ),
    }));
}

const OPERATION = /^(openapi|openapi-operation|swagger)$/;

function atomNodes(meta: AtomMeta): NodeJSON[] {
  if (meta.name === 'include') {
    const src = meta.argument ?? meta.attrs.src ?? '';
    if (!src || !isSafeUrl(src)) return literalParagraphs(meta.source);
    const id = /^reusable:(.+)$/.exec(src)?.[1] ?? null;
    return [{ type: 'reusableContent', attrs: { reusableContentId: id, src: id ? null : src } }];
  }
  if (OPERATION.test(meta.name)) {
    const { spec = null, src = null, path = '', method = 'get' } = meta.attrs;
    if (src && !isSafeUrl(src)) return literalParagraphs(meta.source);
    return [{ type: 'openapiOperation', attrs: { spec: spec || null, src: src || null, path, method: method.toLowerCase() } }];
  }
  const caption = meta.inner.replace(/\s*\n\s*/g, ' ') || null;
  if (meta.name === 'embed') {
    const url = meta.attrs.url ?? '';
    if (!url || !isSafeUrl(url)) return literalParagraphs(meta.source);
    return [{ type: 'embed', attrs: { url, caption } }];
  }
  if (meta.name === 'file') {
    const src = meta.attrs.src ?? '';
    if (!src || !isSafeUrl(src)) return literalParagraphs(meta.source);
    const fileId = /^file:(.+)$/.exec(src)?.[1] ?? null;
    return [{ type: 'file', attrs: { fileId, src: fileId ? null : src, caption } }];
  }
  const href = meta.attrs.url ?? '';
  if (!href || !isSafeUrl(href)) return literalParagraphs(meta.source);
  const label = /^\[((?:\\.|[^\]\\])*)\]\(.*\)$/.exec(meta.inner)?.[1];
  const title = label === undefined ? null : markdownIt.utils.unescapeAll(label);
  return [{ type: 'contentRef', attrs: { href, title: title === href ? null : title } }];
}

function figureImage(meta: FigureMeta): NodeJSON {
  const attrs = { src: meta.src, alt: meta.alt, caption: meta.caption, width: meta.width, srcDark: meta.srcDark };
  if (!isSafeUrl(meta.src) || (meta.srcDark && !isSafeUrl(meta.srcDark))) {
    return { type: 'paragraph', content: textNodes(meta.source) };
  }
  return { type: 'image', attrs };
}

const ANCHOR_OPEN = /^<a\b[^>]*>$/i;

/** `## Title <a href="#x" id="x"></a>`: the anchor is the heading's id, not part of its text. */
function takeHeadingAnchor(heading: NodeJSON): void {
  const content = heading.content ?? [];
  const last = content[content.length - 1];
  if (last?.type !== 'htmlInline') return;
  const html = String(last.attrs?.html ?? '');
  const match = /^(<a\b[^>]*>)\s*<\/a>$/i.exec(html);
  if (!match || !ANCHOR_OPEN.test(match[1] as string)) return;
  const attrs = htmlAttributes(match[1] as string);
  const id = attrs.id ?? attrs.name ?? (attrs.href?.startsWith('#') ? attrs.href.slice(1) : undefined);
  if (!id) return;
  content.pop();
  const before = content[content.length - 1];
  if (before?.type === 'text') {
    before.text = (before.text ?? '').replace(/\s+$/, '');
    if (before.text === '') content.pop();
  }
  heading.attrs = { ...heading.attrs, id };
}

/** A paragraph holding one image and nothing else is GitBook's image block. */
function imageOnlyParagraphToImage(paragraph: NodeJSON): void {
  const only = paragraph.content?.length === 1 ? paragraph.content[0] : undefined;
  if (only?.type !== 'inlineImage') return;
  paragraph.type = 'image';
  paragraph.attrs = { src: only.attrs?.src, alt: only.attrs?.alt };
  delete paragraph.content;
}

/** GFM task lists: a bullet list whose every item starts with `[ ]` or `[x]`. */
function bulletListToTaskList(list: NodeJSON): void {
  const items = list.content ?? [];
  const markers = items.map((item) => {
    const first = item.content?.[0];
    const text = first?.type === 'paragraph' ? first.content?.[0] : undefined;
    return text?.type === 'text' ? TASK_MARKER.exec(text.text ?? '') : null;
  });
  if (items.length === 0 || markers.some((marker) => marker === null)) return;
  list.type = 'taskList';
  items.forEach((item, i) => {
    const marker = markers[i] as RegExpExecArray;
    const paragraph = item.content?.[0] as NodeJSON;
    const text = paragraph.content?.[0] as NodeJSON;
    text.text = (text.text ?? '').slice(marker[0].length);
    if (text.text === '') paragraph.content?.shift();
    item.type = 'taskItem';
    item.attrs = { checked: marker[1] !== ' ' };
  });
}

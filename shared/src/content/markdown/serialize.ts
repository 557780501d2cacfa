import type { Node as PMNode } from 'prosemirror-model';
import { toBodyNode } from '../normalize';
import { rewriteHtmlTargets } from '../htmlTargets';
import { reusableContentTarget, type TargetKind } from '../targets';
import { codeSpan, escapeAttribute, escapeDestination, escapeHtmlText, escapeLiquidAttribute, escapeText } from './escape';
import { type FrontMatter, formatFrontMatter } from './frontMatter';
import { htmlText } from './gitbookBlocks';
import { type InlineContext, inlineMarkdown } from './inline';

/** Options of {@link bodyToMarkdown}. */
export interface MarkdownOptions {
  /** Written as a YAML block before the body (a git export writes `description`, `icon`, `layout`). */
  frontMatter?: FrontMatter;
  /**
   * Rewrites each target as it is written: a git export turns `page:<id>` into the
   * page's relative `.md` path and `file:<id>` into the asset's path. Default: as stored.
   */
  resolveTarget?: (target: string, kind: TargetKind) => string;
  /**
   * Write every block image as GitBook's git sync does, `<figure>` with its caption, empty
   * or not (a git export); otherwise an image without caption, width or dark variant is `![alt](src)`.
   */
  figures?: boolean;
}

const ALIGN_RULES: Record<string, string> = { left: ':---', center: ':---:', right: '---:' };

/**
 * Writes a page body as GitBook-flavoured markdown, in the form a git-synced GitBook
 * repository holds: `{% hint %}`, `{% tabs %}`, `{% code %}`, `<figure>`, `<details>`…
 * Reading the result back with `markdownToBody` gives the same body.
 */
export function bodyToMarkdown(body: unknown, options: MarkdownOptions = {}): string {
  const writer = new MarkdownWriter(options.resolveTarget ?? ((target) => target), options.figures ?? false);
  const text = writer.blocks(toBodyNode(body));
  const frontMatter = formatFrontMatter(options.frontMatter);
  if (text === '') return frontMatter;
  return frontMatter ? `${frontMatter}\n${text}\n` : `${text}\n`;
}

class MarkdownWriter {
  private readonly inline: InlineContext;
  private readonly heading: InlineContext;
  private readonly cell: InlineContext;

  constructor(
    private readonly resolveTarget: (target: string, kind: TargetKind) => string,
    private readonly figures: boolean,
  ) {
    this.inline = { inTable: false, singleLine: false, resolveTarget };
    this.heading = { inTable: false, singleLine: true, resolveTarget };
    this.cell = { inTable: true, singleLine: true, resolveTarget };
  }

  /** Child blocks separated by blank lines; empty paragraphs leave no trace. */
  blocks(parent: PMNode): string {
    return this.childBlocks(parent)
      .filter((text) => text !== '')
      .join('\n\n');
  }

  /** Each child block written on its own ('' for an empty paragraph). */
  private childBlocks(parent: PMNode): string[] {
    const texts: string[] = [];
    let previousList: { type: string; marker: string } | null = null;
    parent.forEach((child) => {
      if (isList(child)) {
        // two lists in a row would read as one unless the second uses another marker
        const marker = listMarkerAfter(child, previousList);
        texts.push(this.list(child, marker));
        previousList = { type: child.type.name, marker };
        return;
      }
      const text = this.block(child);
      if (text !== '') previousList = null;
      texts.push(text);
    });
    return texts;
  }

  private block(node: PMNode): string {
    const attrs = node.attrs;
    switch (node.type.name) {
      case 'paragraph':
        return inlineMarkdown(node, this.inline);
      case 'heading': {
        const text = inlineMarkdown(node, this.heading).replace(/#$/, '\\#');
        const anchor = attrs.id ? `<a href="#${escapeAttribute(attrs.id)}" id="${escapeAttribute(attrs.id)}"></a>` : '';
        const line = [text, anchor].filter(Boolean).join(' ');
        return line === '' ? '#'.repeat(attrs.level) : `${'#'.repeat(attrs.level)} ${line}`;
      }
      case 'htmlBlock':
        return rewriteHtmlTargets(String(attrs.html ?? ''), this.resolveTarget);
      case 'math':
        return attrs.tex === '' ? '$$\n$$' : `$$\n${attrs.tex}\n$$`;
      case 'columns':
        return liquid(
          'columns',
          'endcolumns',
          node.children
            .map((column) =>
              liquid(column.attrs.width ? `column width="${column.attrs.width}%"` : 'column', 'endcolumn', this.blocks(column)),
            )
            .join('\n\n'),
        );
      case 'updates':
        return liquid(
          'updates',
          'endupdates',
          node.children
            .map((update) => {
              const title = update.attrs.title ? ` title="${escapeLiquidAttribute(update.attrs.title)}"` : '';
              return liquid(`update date="${escapeLiquidAttribute(update.attrs.date)}"${title}`, 'endupdate', this.blocks(update));
            })
            .join('\n\n'),
        );
      case 'openapiOperation':
        return this.openapiOperation(node);
      case 'reusableContent': {
        const target = attrs.reusableContentId ? reusableContentTarget(attrs.reusableContentId) : String(attrs.src ?? '');
        return `{% include "${escapeLiquidAttribute(this.resolveTarget(target, 'reusableContent'))}" %}`;
      }
      case 'blockquote':
        return prefixLines(this.blocks(node), '> ', '>');
      case 'codeBlock':
        return this.codeBlock(node);
      case 'hint':
        return liquid(`hint style="${escapeLiquidAttribute(attrs.style)}"`, 'endhint', this.blocks(node));
      case 'tabs':
        return liquid(
          'tabs',
          'endtabs',
          node.children
            .map((tab) => liquid(`tab title="${escapeLiquidAttribute(tab.attrs.title)}"`, 'endtab', this.blocks(tab)))
            .join('\n\n'),
        );
      case 'stepper':
        return liquid('stepper', 'endstepper', node.children.map((step) => liquid('step', 'endstep', this.blocks(step))).join('\n\n'));
      case 'details':
        return this.details(node);
      case 'table':
        return this.table(node);
      case 'image':
        return this.image(node);
      case 'file': {
        const src = attrs.fileId ? `file:${attrs.fileId}` : String(attrs.src ?? '');
        const tag = `file src="${escapeLiquidAttribute(this.resolveTarget(src, 'file'))}"`;
        return attrs.caption ? liquid(tag, 'endfile', escapeText(attrs.caption)) : `{% ${tag} %}`;
      }
      case 'embed': {
        const tag = `embed url="${escapeLiquidAttribute(this.resolveTarget(attrs.url, 'embed'))}"`;
        return attrs.caption ? liquid(tag, 'endembed', escapeText(attrs.caption)) : `{% ${tag} %}`;
      }
      case 'contentRef': {
        const href = this.resolveTarget(attrs.href, 'contentRef');
        const label = escapeText(attrs.title ?? href);
        return liquid(`content-ref url="${escapeLiquidAttribute(href)}"`, 'endcontent-ref', `[${label}](${escapeDestination(href)})`);
      }
      case 'horizontalRule':
        return '***';
      default:
        return this.blocks(node);
    }
  }

  private openapiOperation(node: PMNode): string {
    const { spec, path, method } = node.attrs;
    const src = node.attrs.src ? this.resolveTarget(node.attrs.src, 'file') : null;
    const operation = `path="${escapeLiquidAttribute(path)}" method="${escapeLiquidAttribute(method)}"`;
    if (spec || !src) {
      return liquid(`openapi-operation spec="${escapeLiquidAttribute(spec ?? '')}" ${operation}`, 'endopenapi-operation', '');
    }
    const link = `[${escapeText(src)}](${escapeDestination(src)})`;
    return liquid(`openapi src="${escapeLiquidAttribute(src)}" ${operation}`, 'endopenapi', link);
  }

  private codeBlock(node: PMNode): string {
    const { language, title, lineNumbers, wrap } = node.attrs;
    const text = node.textContent;
    const longest = Math.max(0, ...Array.from(text.matchAll(/^ {0,3}(`{3,})/gm), (m) => (m[1] as string).length));
    const fence = '`'.repeat(Math.max(3, longest + 1));
    const code = `${fence}${language ?? ''}\n${text === '' ? '' : `${text}\n`}${fence}`;
    if (!title && !lineNumbers && !wrap) return code;
    const options = [
      title ? `title="${escapeLiquidAttribute(title)}"` : '',
      wrap ? 'overflow="wrap"' : '',
      lineNumbers ? 'lineNumbers="true"' : '',
    ].filter(Boolean);
    return liquid(`code ${options.join(' ')}`, 'endcode', code);
  }

  private list(node: PMNode, bullet: string): string {
    const start = Number(node.attrs.start ?? 1);
    return node.children
      .map((item, i) => {
        if (node.type.name === 'orderedList') return this.listItem(item, `${start + i}${bullet} `);
        if (node.type.name === 'taskList') return this.listItem(item, `${bullet} ${item.attrs.checked ? '[x]' : '[ ]'} `, 2);
        return this.listItem(item, `${bullet} `);
      })
      .join('\n');
  }

  /** A list item: its first block on the marker line, the rest indented under it. */
  private listItem(item: PMNode, marker: string, indentWidth = marker.length): string {
    const [first = '', ...rest] = this.childBlocks(item);
    let body = '';
    rest.forEach((text, i) => {
      if (text === '') return;
      const child = item.child(i + 1);
      // a list right under the item's paragraph reads tighter, but only a list starting at 1 with a
      // non-empty first item can interrupt a paragraph
      const tight =
        i === 0 &&
        first !== '' &&
        isList(child) &&
        (child.type.name !== 'orderedList' || child.attrs.start === 1) &&
        !/^(?:[-*]|\d+[.)])$/.test(text.split('\n', 1)[0] as string);
      body += tight ? `\n${text}` : `\n\n${text}`;
    });
    body = indentLines(body, indentWidth);
    if (first === '') return body === '' ? marker.trimEnd() : `${marker.trimEnd()}${body.replace(/^\n+/, '\n')}`;
    return `${marker}${indentLines(first, indentWidth, true)}${body}`;
  }

  private details(node: PMNode): string {
    const summaryNode = node.child(0);
    const summary = summaryNode.textContent;
    const html = summaryNode.attrs.html as string | null;
    // the summary's images are kept as written while its text is the one they came with
    const written = html && htmlText(html) === summary ? rewriteHtmlTargets(html, this.resolveTarget) : escapeHtmlText(summary);
    const content = this.blocks(node.child(1));
    return ['<details>', `<summary>${written}</summary>`, content, '</details>'].filter(Boolean).join('\n\n');
  }

  private table(node: PMNode): string {
    const rows = node.children.map((row) => row.children);
    const width = Math.max(0, ...rows.map((cells) => cells.length));
    if (width === 0) return '';
    const header = rows[0] ?? [];
    const line = (cells: readonly PMNode[]) =>
      `| ${Array.from({ length: width }, (_, i) => (cells[i] ? this.cellText(cells[i]) : '')).join(' | ')} |`;
    const rule = `| ${Array.from({ length: width }, (_, i) => ALIGN_RULES[header[i]?.attrs.align as string] ?? '---').join(' | ')} |`;
    return [line(header), rule, ...rows.slice(1).map(line)].join('\n');
  }

  /** A cell's blocks on one line; GitBook tables hold rich cells, markdown ones only inline text. */
  private cellText(cell: PMNode): string {
    return cell.children
      .map((child) => (child.isTextblock && child.type.name !== 'codeBlock' ? inlineMarkdown(child, this.cell) : cellFallback(child)))
      .filter((text) => text !== '')
      .join('<br><br>');
  }

  private image(node: PMNode): string {
    const { alt, caption, width, srcDark } = node.attrs;
    const src = this.resolveTarget(node.attrs.src, 'image');
    if (!this.figures && !caption && !width && !srcDark) return `![${escapeText(alt ?? '')}](${escapeDestination(src)})`;
    let img = `<img src="${escapeAttribute(src)}" alt="${escapeAttribute(alt ?? '')}"${width ? ` width="${escapeAttribute(width)}"` : ''}>`;
    if (srcDark) {
      const dark = escapeAttribute(this.resolveTarget(srcDark, 'image'));
      img = `<picture><source srcset="${dark}" media="(prefers-color-scheme: dark)">${img}</picture>`;
    }
    const figcaption = caption ? `<figcaption><p>${escapeHtmlText(caption)}</p></figcaption>` : '<figcaption></figcaption>';
    return `<figure>${img}${figcaption}</figure>`;
  }
}

function cellFallback(node: PMNode): string {
  if (node.type.name === 'codeBlock') return codeSpan(node.textContent, true);
  if (node.type.name === 'htmlBlock')
    return String(node.attrs.html)
      .replace(/\s*\n\s*/g, ' ')
      .replace(/\|/g, '&#124;');
  if (node.type.name === 'math') return `$$${node.attrs.tex}$$`;
  return escapeText(node.textContent);
}

function isList(node: PMNode): boolean {
  return node.type.name === 'bulletList' || node.type.name === 'orderedList' || node.type.name === 'taskList';
}

/** `*` / `.` normally; `-` / `)` when the previous block was a list of the same kind, so the two stay apart. */
function listMarkerAfter(node: PMNode, previous: { type: string; marker: string } | null): string {
  if (node.type.name === 'orderedList') return previous?.type === 'orderedList' && previous.marker === '.' ? ')' : '.';
  const previousBullet = previous && previous.type !== 'orderedList' ? previous.marker : null;
  return previousBullet === '*' ? '-' : '*';
}

function liquid(open: string, close: string, content: string): string {
  return content === '' ? `{% ${open} %}\n{% ${close} %}` : `{% ${open} %}\n${content}\n{% ${close} %}`;
}

function prefixLines(text: string, prefix: string, emptyPrefix: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? emptyPrefix : prefix + line))
    .join('\n');
}

/** Indents every line after a line break; empty lines stay empty. */
function indentLines(text: string, width: number, skipFirst = false): string {
  const pad = ' '.repeat(width);
  return text
    .split('\n')
    .map((line, i) => (line === '' || (skipFirst && i === 0) ? line : pad + line))
    .join('\n');
}

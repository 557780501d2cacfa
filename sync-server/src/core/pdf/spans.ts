import { withoutIconCodes } from '@quire/shared/content/iconCodes';
import type { NodeJSON } from '@quire/shared/content/json';
import { isFilePathText, isSafeUrl, parseTarget } from '@quire/shared/content/targets';
import { imageDimensions } from '../content/import/plan';
import type { FontRole } from './fonts';
import { htmlToInlines } from './html';
import type { LinkTarget, Span } from './inline';
import { type RenderContext, pageDest } from './renderContext';
import { COLORS } from './writer';

// Inline content as styled spans, in the body's size unless told otherwise.

export const BODY_SIZE = 10.5;

export interface InlineBase {
  size: number;
  color: string;
  bold?: boolean;
  italic?: boolean;
  mono?: boolean;
}

function roleOf(b: { bold?: boolean; italic?: boolean; mono?: boolean }): FontRole {
  if (b.mono) return b.bold ? 'monoBold' : 'mono';
  if (b.bold) return b.italic ? 'boldItalic' : 'bold';
  return b.italic ? 'italic' : 'text';
}

/** Where a link in the body goes in the PDF: a destination when its page is in it, a web address, or nowhere. */
export function linkTarget(ctx: RenderContext, href: string): LinkTarget | undefined {
  const t = parseTarget(href.trim());
  switch (t.kind) {
    case 'page': {
      const withAnchor = pageDest(t.pageId, t.anchor);
      if (ctx.dests.has(withAnchor)) return { dest: withAnchor };
      return ctx.dests.has(pageDest(t.pageId)) ? { dest: pageDest(t.pageId) } : undefined;
    }
    case 'anchor': {
      const dest = pageDest(ctx.pageId, t.anchor);
      return ctx.dests.has(dest) ? { dest } : undefined;
    }
    case 'file': {
      const file = ctx.res.files.get(t.fileId);
      return file ? { url: file.url } : undefined;
    }
    case 'url':
      return isSafeUrl(t.url) && !t.url.startsWith('data:') ? { url: t.url } : undefined;
    default:
      return undefined;
  }
}

/** The title of a page the body links to, when the PDF's space has that page. */
export function linkedPageTitle(ctx: RenderContext, href: string): string | undefined {
  const t = parseTarget(href.trim());
  return t.kind === 'page' ? ctx.res.pageTitles.get(t.pageId) : undefined;
}

/** A link's own text, or the linked page's title when the text is only that page's file path (as on sites). */
function shownLinkText(ctx: RenderContext, text: string, href: string): string {
  return isFilePathText(text) ? (linkedPageTitle(ctx, href) ?? text) : text;
}

/**
 * An image in a line of text at the size it is drawn: an interface icon at most as tall
 * as the text's line, never wider than a short phrase. Undefined when it cannot be drawn.
 */
function inlineImage(ctx: RenderContext, src: string, size: number): Span['image'] {
  const found = ctx.res.images.get(src);
  if (!found || !('data' in found)) return undefined;
  const px = imageDimensions(found.data);
  if (!px || !px.width || !px.height) return undefined;
  // Pixels at 96 dpi, as blocks draw images.
  let height = Math.min((px.height * 0.75) / (found.scale ?? 1), size * 1.3);
  let width = (px.width / px.height) * height;
  if (width > size * 16) {
    width = size * 16;
    height = (px.height / px.width) * width;
  }
  return { data: found.data, width, height };
}

/** Inline content as styled spans: marks become faces, links become targets. */
export function spansOf(ctx: RenderContext, node: NodeJSON, base: InlineBase): Span[] {
  const out: Span[] = [];
  for (const child of node.content ?? []) {
    const marks = new Set((child.marks ?? []).map((m) => m.type));
    const href = child.marks?.find((m) => m.type === 'link')?.attrs?.href;
    const style = {
      ...base,
      bold: base.bold || marks.has('bold'),
      italic: base.italic || marks.has('italic'),
      mono: base.mono || marks.has('code'),
    };
    const span = (text: string, extra: Partial<Span> = {}): Span => ({
      text,
      role: roleOf(style),
      size: style.mono && !base.mono ? base.size * 0.92 : base.size,
      color: base.color,
      ...(typeof href === 'string' ? { link: linkTarget(ctx, href) } : {}),
      ...(marks.has('code') ? { code: true } : {}),
      ...(marks.has('strike') ? { strike: true } : {}),
      ...extra,
    });
    switch (child.type) {
      case 'text': {
        // Icon codes (`:rocket:`) stand for pictures the PDF does not draw; code is verbatim.
        const value = style.mono ? child.text : withoutIconCodes(child.text ?? '');
        if (value) out.push(span(typeof href === 'string' ? shownLinkText(ctx, value, href) : value));
        break;
      }
      case 'hardBreak':
        out.push(span('\n'));
        break;
      case 'inlineImage': {
        const image = inlineImage(ctx, String(child.attrs?.src ?? ''), base.size);
        if (image) out.push(span('\ufffc', { image }));
        else out.push(span(`[${String(child.attrs?.alt || child.attrs?.title || 'image')}]`, { role: 'italic', color: COLORS.muted }));
        break;
      }
      case 'mathInline':
        out.push(span(String(child.attrs?.tex ?? ''), { role: 'mono', code: true }));
        break;
      case 'htmlInline':
        out.push(...spansOf(ctx, { type: 'paragraph', content: htmlToInlines(String(child.attrs?.html ?? '')) }, base));
        break;
      default:
        if (child.content) out.push(...spansOf(ctx, child, style));
        else if (child.text) out.push(span(child.text));
    }
  }
  return out;
}

export function plainText(node: NodeJSON): string {
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'hardBreak') return '\n';
  return (node.content ?? []).map(plainText).join('');
}

export const text = (s: string, size = BODY_SIZE, role: FontRole = 'text', color = COLORS.text, link?: LinkTarget): Span => ({
  text: s,
  size,
  role,
  color,
  ...(link ? { link } : {}),
});

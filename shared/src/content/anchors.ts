import type { NodeJSON } from './json';
import { withoutIconCodes } from './iconCodes';
import { slugify, uniqueSlug } from './slugs';

/** One heading of a page body, as outlines, search results and `#anchor` links see it. */
export interface HeadingAnchor {
  /** Slug of the heading's text, made unique within the page (`setup`, `setup-2`). */
  anchor: string;
  title: string;
  level: number;
}

/**
 * Assigns anchors to headings in document order. The anchor is derived from the text
 * alone, so every replica, the published site and the search index agree without
 * storing it, and a link keeps working as long as the heading's text does.
 */
export class AnchorAllocator {
  private readonly taken = new Set<string>();

  /** `id`: the anchor written in the source, kept as is when no earlier heading took it. */
  next(title: string, id?: string | null): string {
    const anchor = id && !this.taken.has(id) ? id : uniqueSlug(slugify(title) || 'section', this.taken);
    this.taken.add(anchor);
    return anchor;
  }
}

/** The outline of a body: every heading, nested ones (in hints, tabs…) included, in order. */
export function headingAnchors(body: NodeJSON): HeadingAnchor[] {
  const allocator = new AnchorAllocator();
  const out: HeadingAnchor[] = [];
  const walk = (node: NodeJSON): void => {
    if (node.type === 'heading') {
      const title = headingText(node);
      const id = typeof node.attrs?.id === 'string' ? node.attrs.id : null;
      out.push({ anchor: allocator.next(title, id), title, level: Number(node.attrs?.level ?? 1) });
      return;
    }
    node.content?.forEach(walk);
  };
  walk(body);
  return out;
}

/** Text of an inline container; hard breaks read as spaces. */
export function inlineText(node: NodeJSON): string {
  let text = '';
  for (const child of node.content ?? []) {
    if (child.type === 'text') text += child.text ?? '';
    else if (child.type === 'hardBreak') text += ' ';
    else if (child.content) text += inlineText(child);
  }
  return text;
}

/**
 * A heading's text as outlines, anchors and search show it: icon codes (`:rocket:`) are
 * drawn, not read, so they are left out; text marked as code is kept as written.
 */
export function headingText(node: NodeJSON): string {
  let text = '';
  for (const child of node.content ?? []) {
    if (child.type === 'text') {
      const value = child.text ?? '';
      text += child.marks?.some((m) => m.type === 'code') ? value : withoutIconCodes(value);
    } else if (child.type === 'hardBreak') text += ' ';
    else if (child.content) text += headingText(child);
  }
  return text.replace(/ {2,}/g, ' ');
}

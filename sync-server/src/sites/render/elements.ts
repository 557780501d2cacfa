import type { Element, ElementContent } from 'hast';

// HTML trees (hast) built by hand: the body renderer's and the API reference's.

export const el = (tagName: string, properties: Element['properties'], children: ElementContent[] = []): Element => ({
  type: 'element',
  tagName,
  properties,
  children,
});
export const txt = (value: string): ElementContent => ({ type: 'text', value });

/** The text of a node and everything in it, but what `skip` leaves out. */
export function textOf(n: ElementContent, skip?: (e: Element) => boolean): string {
  if (n.type === 'text') return n.value;
  if (n.type === 'element') return skip?.(n) ? '' : n.children.map((c) => textOf(c, skip)).join('');
  return '';
}

/** An icon kept from hand-written HTML (sanitize.ts): its text is a code, not words. */
export const isIcon = (e: Element): boolean =>
  e.tagName === 'i' && Array.isArray(e.properties.className) && e.properties.className.includes('icon');

import type { Element, ElementContent } from 'hast';

// HTML trees (hast) built by hand: the body renderer's and the API reference's.

export const el = (tagName: string, properties: Element['properties'], children: ElementContent[] = []): Element => ({
  type: 'element',
  tagName,
  properties,
  children,
});
export const txt = (value: string): ElementContent => ({ type: 'text', value });

/** The text of a node and everything in it. */
export function textOf(n: ElementContent): string {
  if (n.type === 'text') return n.value;
  if (n.type === 'element') return n.children.map(textOf).join('');
  return '';
}

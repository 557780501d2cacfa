import { inlineText } from '@quire/shared/content/anchors';
import type { NodeJSON } from '@quire/shared/content/json';
import { mermaidDiagram } from '../diagrams/mermaid';
import { printableImage } from './images';
import type { PdfImage } from './model';

/**
 * Mermaid diagrams of the bodies, drawn as on published sites and rasterized for print,
 * by source. A diagram the server cannot draw has no entry and prints as its source.
 */
export async function pdfDiagrams(bodies: Iterable<NodeJSON>): Promise<Map<string, PdfImage>> {
  const sources = new Set<string>();
  const walk = (n: NodeJSON) => {
    if (n.type === 'codeBlock' && n.attrs?.language === 'mermaid') sources.add(inlineText(n));
    n.content?.forEach(walk);
  };
  for (const body of bodies) walk(body);
  const out = new Map<string, PdfImage>();
  for (const source of sources) {
    const drawn = mermaidDiagram(source, 'light');
    if (!drawn) continue;
    const image = await printableImage(Buffer.from(drawn.svg), 'image/svg+xml');
    if ('data' in image) out.set(source, image);
  }
  return out;
}

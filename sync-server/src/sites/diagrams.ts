import { inlineText } from '@quire/shared/content/anchors';
import type { NodeJSON } from '@quire/shared/content/json';
import { type Diagram, type DiagramTheme, diagramDigest, mermaidDiagram } from '../core/diagrams/mermaid';
import type { LinkResolver } from './render/body';

/**
 * Mermaid diagrams of a page, drawn on the server and served as SVG images at
 * `~diagram/<revisionId>/<pageId>/<digest>.<theme>.svg`. An `<img>` keeps the SVG away
 * from the page (no script or style of it can act on the page, whatever the source
 * says) and outside the page's CSP. The URL names the revision and page, so any server
 * instance can draw it again from the content, and browsers may cache it for good.
 */

export function diagramResolver(base: string, revisionId: string, pageId: string): NonNullable<LinkResolver['diagram']> {
  const prefix = `${base}/~diagram/${encodeURIComponent(revisionId)}/${encodeURIComponent(pageId)}`;
  return (source) => {
    const drawn = mermaidDiagram(source, 'light');
    if (!drawn) return undefined;
    const digest = diagramDigest(source);
    return { light: `${prefix}/${digest}.light.svg`, dark: `${prefix}/${digest}.dark.svg`, width: drawn.width, height: drawn.height };
  };
}

/** Parts of a diagram URL below the site root, or undefined for any other path. */
export function parseDiagramPath(rest: string): { revisionId: string; pageId: string; digest: string; theme: DiagramTheme } | undefined {
  const m = /^\/~diagram\/([^/]+)\/([^/]+)\/([\w-]{22})\.(light|dark)\.svg$/.exec(rest);
  if (!m) return undefined;
  try {
    return {
      revisionId: decodeURIComponent(m[1] as string),
      pageId: decodeURIComponent(m[2] as string),
      digest: m[3] as string,
      theme: m[4] as DiagramTheme,
    };
  } catch {
    return undefined;
  }
}

/** The diagram of a body whose source has this digest, drawn in a theme. */
export function diagramInBody(body: NodeJSON, digest: string, theme: DiagramTheme): Diagram | undefined {
  let found: string | undefined;
  const walk = (n: NodeJSON) => {
    if (found !== undefined) return;
    if (n.type === 'codeBlock' && n.attrs?.language === 'mermaid') {
      const source = inlineText(n);
      if (diagramDigest(source) === digest) found = source;
    }
    n.content?.forEach(walk);
  };
  walk(body);
  return found === undefined ? undefined : mermaidDiagram(found, theme);
}

import { isFilePathText, isSafeUrl, parseTarget } from '@quire/shared/content/targets';
import type { ElementContent } from 'hast';

/** A space file shown as an image: its URL, resized variants and intrinsic size. */
export interface ImageSource {
  src: string;
  srcSet?: string;
  width?: number;
  height?: number;
}

/** How targets inside the body become URLs (and cards) of the published site. */
export interface LinkResolver {
  /** URL of a page of the same space (and heading), or undefined when it is not published. */
  page(pageId: string, anchor: string | null): string | undefined;
  /** Title and description of a page, for content-reference cards. */
  pageInfo?(pageId: string): { title: string; description: string; emoji?: string | null } | undefined;
  /** URL of a space file. */
  file(fileId: string): string | undefined;
  /** Name, size and type of a space file, for file blocks. */
  fileInfo?(fileId: string): { name: string; size?: number; contentType: string } | undefined;
  /** A space image with its resized variants. */
  image?(fileId: string): ImageSource | undefined;
  /** The space file a path written in raw HTML names (`.gitbook/assets/x.png`), by id. */
  asset?(path: string): string | undefined;
  /** An OpenAPI operation block, already rendered, or undefined when its spec is unknown. */
  openapi?(attrs: Record<string, unknown>): ElementContent[] | undefined;
  /** URLs of a Mermaid diagram drawn on the server (one per theme) and its size, or undefined when it cannot be drawn. */
  diagram?(source: string): { light: string; dark: string; width: number; height: number } | undefined;
  /** Links to other hosts open in a new tab when the site says so. */
  externalTarget: 'self' | 'blank';
}

/** A target as a URL the reader may follow, or undefined for one that must not be one. */
export function resolveHref(href: unknown, links: LinkResolver): string | undefined {
  if (typeof href !== 'string' || !href || !isSafeUrl(href)) return undefined;
  const t = parseTarget(href);
  switch (t.kind) {
    case 'page':
      return links.page(t.pageId, t.anchor);
    case 'file':
      return links.file(t.fileId);
    case 'anchor':
      return `#${encodeURIComponent(t.anchor)}`;
    case 'url':
      return /^(https?:|mailto:|tel:)/i.test(t.url) ? t.url : undefined;
    case 'path': {
      // A repository path an import left as written: a file of the space, or nowhere.
      const fileId = links.asset?.(t.path);
      return fileId ? links.file(fileId) : undefined;
    }
  }
}

export function isExternal(url: string): boolean {
  return /^https?:/i.test(url);
}

/** The text a link shows: its own, or the linked page's title when it is only that page's file path. */
export function shownLinkText(text: string, href: unknown, links: LinkResolver): string {
  if (typeof href !== 'string' || !isFilePathText(text)) return text;
  const t = parseTarget(href);
  if (t.kind !== 'page') return text;
  return links.pageInfo?.(t.pageId)?.title || text;
}

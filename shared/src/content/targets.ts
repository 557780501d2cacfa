/**
 * What a link, image, file or content reference in a body points at. Targets inside the
 * space are written as `page:<pageId>[#anchor]` and `file:<fileId>` so they survive a
 * page being renamed or moved; git-style relative paths stay as `path` until an import
 * resolves them.
 */
export type Target =
  | { kind: 'page'; pageId: string; anchor: string | null }
  | { kind: 'file'; fileId: string }
  | { kind: 'anchor'; anchor: string }
  | { kind: 'url'; url: string }
  | { kind: 'path'; path: string; anchor: string | null };

const PAGE = /^page:([A-Za-z0-9_-]+)(?:#(.*))?$/;
const FILE = /^file:([A-Za-z0-9_-]+)$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Reads a target as written in a body (`href`, `src`, `url`). */
export function parseTarget(href: string): Target {
  const page = PAGE.exec(href);
  if (page) return { kind: 'page', pageId: page[1] as string, anchor: page[2] || null };
  const file = FILE.exec(href);
  if (file) return { kind: 'file', fileId: file[1] as string };
  if (href.startsWith('#')) return { kind: 'anchor', anchor: href.slice(1) };
  if (SCHEME.test(href) || href.startsWith('//')) return { kind: 'url', url: href };
  const hash = href.indexOf('#');
  return hash < 0
    ? { kind: 'path', path: href, anchor: null }
    : { kind: 'path', path: href.slice(0, hash), anchor: href.slice(hash + 1) || null };
}

/** The body form of a link to a page (and a heading in it). */
export function pageTarget(pageId: string, anchor?: string | null): string {
  return anchor ? `page:${pageId}#${anchor}` : `page:${pageId}`;
}

/**
 * The body form of a mention of a member: a link (`user:<userId>`) whose text is `@Name`, so
 * every reader of the body (markdown, sites, exports) shows the name as written, and the
 * mention needs no node of its own.
 */
export function userTarget(userId: string): string {
  return `user:${userId}`;
}

/** The member a `user:<userId>` link mentions, or null for any other target. */
export function mentionedUser(href: string): string | null {
  return /^user:([A-Za-z0-9_-]+)$/.exec(href)?.[1] ?? null;
}

/** The body form of a reference to a space file. */
export function fileTarget(fileId: string): string {
  return `file:${fileId}`;
}

/**
 * False for targets a browser would run as script (`javascript:`, `vbscript:`, `data:`
 * other than raster images), however they are cased or padded. Markdown import turns such
 * links into inert text, and renderers check again because bodies also come from editors.
 */
export function isSafeUrl(href: string): boolean {
  // browsers ignore whitespace and control characters inside a scheme
  const compact = href.replace(/[\p{Cc}\s]/gu, '').toLowerCase();
  if (/^(?:javascript|vbscript):/.test(compact)) return false;
  if (compact.startsWith('data:')) return /^data:image\/(?:png|gif|jpeg|webp);/.test(compact);
  if (compact.startsWith('file:')) return FILE.test(href.trim());
  return true;
}

/**
 * Where in a body a target was written: a link mark, an image (inline or block), a file
 * block, a content reference, an embed, or an include of reusable content
 * (`reusable:<reusableContentId>`, or the included file's path until an import resolves it).
 */
export type TargetKind = 'link' | 'image' | 'file' | 'contentRef' | 'embed' | 'reusableContent';

/** The body form of an include of reusable content. */
export function reusableContentTarget(reusableContentId: string): string {
  return `reusable:${reusableContentId}`;
}

/** `quickstart.md`, `../guides/setup.md#tokens`, `guides/`: a path to a page's file, with no words in it. */
const FILE_PATH_TEXT = /^(?:\.{1,2}\/)*(?:[^\s/]+\/)*(?:[^\s/]+\.(?:md|markdown)(?:#\S*)?|[^\s/]+\/)$/i;

/**
 * True when a link's text is only the linked page's file path, as GitBook writes content
 * references (`[quickstart.md](quickstart.md)`) and links made from a file: readers are
 * shown the linked page's title instead. The body keeps the text as written.
 */
export function isFilePathText(text: string): boolean {
  return FILE_PATH_TEXT.test(text.trim());
}

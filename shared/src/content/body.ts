import { prosemirrorToYXmlFragment, yXmlFragmentToProsemirrorJSON } from 'y-prosemirror';
import type * as Y from 'yjs';
import type { NodeJSON } from './json';
import { bodyFragment, PageKey, requirePageMap } from './layout';
import type { FrontMatter } from './markdown/frontMatter';
import { type MarkdownImport, markdownToBody } from './markdown/parse';
import { bodyToMarkdown, type MarkdownOptions } from './markdown/serialize';
import { emptyBody, normalizeBody, toBodyNode } from './normalize';
import { refToTarget, targetToRef } from './gitbookDocument';
import type { JsonValue } from './json';
import { readPage } from './pageRecord';

/** A body fragment as ProseMirror JSON, normalized to the body schema. */
export function readBody(fragment: Y.XmlFragment | null): NodeJSON {
  if (!fragment) return normalizeBody(emptyBody());
  return normalizeBody(yXmlFragmentToProsemirrorJSON(fragment));
}

/**
 * Replaces a body fragment's content through y-prosemirror, exactly as a bound editor
 * would write it (nodes as Y.XmlElements, marks as Y.XmlText attributes). Unchanged
 * nodes are kept, so concurrent edits elsewhere in the page survive.
 */
export function writeBody(fragment: Y.XmlFragment, body: unknown): void {
  const node = toBodyNode(body);
  const write = () => prosemirrorToYXmlFragment(node, fragment);
  if (fragment.doc) fragment.doc.transact(write);
  else write();
}

/** A page's body as ProseMirror JSON. */
export function getPageDocument(doc: Y.Doc, pageId: string): NodeJSON {
  return readBody(bodyFragment(requirePageMap(doc, pageId), false));
}

export function setPageDocument(doc: Y.Doc, pageId: string, body: NodeJSON): void {
  const map = requirePageMap(doc, pageId);
  doc.transact(() => writeBody(bodyFragment(map, true) as Y.XmlFragment, body));
}

/** Options of {@link getPageMarkdown}. */
export interface PageMarkdownOptions extends Pick<MarkdownOptions, 'resolveTarget' | 'figures'> {
  /** Write the page's description, icon and layout as YAML front matter, as a git export does. */
  frontMatter?: boolean;
  /** Front matter keys in the order the page's file had them (the others follow in the usual order). */
  frontMatterOrder?: readonly string[];
}

/** A page's body as GitBook-flavoured markdown (the `markdown` field of REST page reads). */
export function getPageMarkdown(doc: Y.Doc, pageId: string, options: PageMarkdownOptions = {}): string {
  const map = requirePageMap(doc, pageId);
  const body = readBody(bodyFragment(map, false));
  const frontMatter = options.frontMatter
    ? ordered(pageFrontMatter(readPage(pageId, map), options.resolveTarget, options.frontMatterOrder ?? []), options.frontMatterOrder ?? [])
    : undefined;
  return bodyToMarkdown(body, { frontMatter, resolveTarget: options.resolveTarget, figures: options.figures });
}

/**
 * Replaces a page's body with markdown; front matter sets the page's description, icon,
 * cover, layout and hidden flag. Returns what was parsed.
 */
export function setPageMarkdown(doc: Y.Doc, pageId: string, markdown: string): MarkdownImport {
  const map = requirePageMap(doc, pageId);
  const parsed = markdownToBody(markdown);
  doc.transact(() => {
    writeBody(bodyFragment(map, true) as Y.XmlFragment, parsed.doc);
    const { description, icon, emoji, layout } = parsed.frontMatter;
    if (description !== undefined) map.set(PageKey.description, description);
    if (icon !== undefined) map.set(PageKey.icon, icon);
    if (emoji !== undefined) map.set(PageKey.emoji, emoji);
    if (layout !== undefined) map.set(PageKey.layout, layout);
    const cover = frontMatterCover(parsed.frontMatter);
    if (cover !== undefined) map.set(PageKey.cover, cover);
    if (parsed.frontMatter.hidden !== undefined) map.set(PageKey.hidden, parsed.frontMatter.hidden);
  });
  return parsed;
}

/**
 * A page's cover as front matter writes it (`cover: .gitbook/assets/x.png`, `coverY: 40`)
 * and as the page stores it (GitBook's `{ref, yPos}`); undefined when the front matter
 * does not say, null when it says there is none.
 */
export function frontMatterCover(frontMatter: FrontMatter): { [key: string]: JsonValue } | null | undefined {
  if (frontMatter.cover === undefined) return undefined;
  if (frontMatter.cover === null) return null;
  const yPos = typeof frontMatter.coverY === 'number' ? frontMatter.coverY : 0;
  return { ref: targetToRef(frontMatter.cover) as unknown as { [key: string]: JsonValue }, yPos };
}

function pageFrontMatter(
  page: {
    description: string;
    icon: string | null;
    emoji: string | null;
    layout: FrontMatter['layout'] | null;
    cover: { [key: string]: JsonValue } | null;
    hidden: boolean;
  },
  resolveTarget: MarkdownOptions['resolveTarget'],
  /** Keys the page's file had: a `coverY: 0` it wrote is written again. */
  written: readonly string[] = [],
): FrontMatter {
  const frontMatter: FrontMatter = {};
  if (page.description) frontMatter.description = page.description;
  if (page.icon) frontMatter.icon = page.icon;
  if (page.emoji) frontMatter.emoji = page.emoji;
  const cover = page.cover ? refToTarget(page.cover.ref) : '';
  if (cover) {
    frontMatter.cover = resolveTarget ? resolveTarget(cover, 'image') : cover;
    if (typeof page.cover?.yPos === 'number' && (page.cover.yPos !== 0 || written.includes('coverY'))) frontMatter.coverY = page.cover.yPos;
  }
  if (page.layout) frontMatter.layout = page.layout;
  if (page.hidden) frontMatter.hidden = true;
  return frontMatter;
}

function ordered(frontMatter: FrontMatter, order: readonly string[]): FrontMatter {
  const out: FrontMatter = {};
  for (const key of order) if (frontMatter[key] !== undefined) out[key] = frontMatter[key];
  return { ...out, ...frontMatter };
}

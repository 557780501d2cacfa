import type { NodeJSON } from '@quire/shared/content/json';
import type { PublishedPage } from './contentSource';
import { esc, safeHref } from './render/html';
import type { ImageSource } from './render/links';

/**
 * GitBook's per-page layout, as front matter writes it and the import keeps it
 * (`layout: {title: {visible: false}, description: {visible}, outline: {visible}, cover:
 * {visible, size}, pagination: {visible}, width: 'wide'}`), and the page's cover image.
 * Anything left out is shown, as on GitBook.
 */
export interface PageLayout {
  title: boolean;
  description: boolean;
  outline: boolean;
  pagination: boolean;
  cover: boolean;
  /** `full`: the cover spans the page's width; `hero`: a banner above the title. */
  coverSize: 'hero' | 'full';
  /** `wide`: the page's text takes the outline's column as well, and the outline is not shown. */
  wide: boolean;
}

function visible(layout: Record<string, unknown> | null | undefined, key: string): boolean {
  const entry = layout?.[key];
  return !(entry && typeof entry === 'object' && (entry as { visible?: unknown }).visible === false);
}

export function pageLayout(page: PublishedPage): PageLayout {
  const layout = page.layout;
  const cover = layout?.cover as { size?: unknown } | undefined;
  return {
    title: visible(layout, 'title'),
    description: visible(layout, 'description'),
    outline: visible(layout, 'outline'),
    pagination: visible(layout, 'pagination'),
    cover: visible(layout, 'cover'),
    coverSize: cover?.size === 'full' ? 'full' : 'hero',
    wide: layout?.width === 'wide',
  };
}

type CoverRef = { kind?: unknown; file?: unknown; url?: unknown };

function coverRef(page: PublishedPage): CoverRef | undefined {
  const ref = (page.cover as { ref?: CoverRef } | null | undefined)?.ref;
  return ref && typeof ref === 'object' ? ref : undefined;
}

/** The body with the cover image added, so its file gets a URL and image variants like the body's own images. */
export function withCover(body: NodeJSON, page: PublishedPage): NodeJSON {
  const ref = coverRef(page);
  if (ref?.kind !== 'file' || typeof ref.file !== 'string') return body;
  return { type: 'doc', content: [body, { type: 'image', attrs: { src: `file:${ref.file}` } }] };
}

/** The cover above the title, or '' when the page has none or its layout hides it. */
export function coverHtml(page: PublishedPage, layout: PageLayout, images: Map<string, ImageSource>): string {
  const ref = coverRef(page);
  if (!ref || !layout.cover) return '';
  let img: string;
  if (ref.kind === 'file' && typeof ref.file === 'string') {
    const source = images.get(ref.file);
    if (!source) return '';
    img = `<img src="${esc(source.src)}"${source.srcSet ? ` srcset="${esc(source.srcSet)}" sizes="(max-width: 820px) 100vw, 1000px"` : ''}${source.width && source.height ? ` width="${source.width}" height="${source.height}"` : ''} alt="" decoding="async">`;
  } else if (ref.kind === 'url' && typeof ref.url === 'string' && /^https:\/\//i.test(ref.url)) {
    img = `<img src="${safeHref(ref.url)}" alt="" decoding="async">`;
  } else return '';
  const y = ref.kind === 'file' && typeof ref.file === 'string' ? coverPosition(page, images.get(ref.file), layout) : undefined;
  return `<figure class="page-cover page-cover-${layout.coverSize}${y === undefined ? '' : ` cover-y-${y}`}">${img}</figure>`;
}

/** The hero cover's box on a desktop page (the content column by the stylesheet's 240 px). */
const HERO = { width: 780, height: 240 };

/**
 * GitBook's `coverY` moves the cropped cover up (negative) or down from its centre, in pixels
 * of the image as drawn. As a vertical `object-position` in steps of 5% (a class each in the
 * stylesheet): the CSP lets no page carry a style of its own.
 */
export function coverPosition(page: PublishedPage, image: ImageSource | undefined, layout: PageLayout): number | undefined {
  const y = (page.cover as { yPos?: unknown } | null | undefined)?.yPos;
  if (typeof y !== 'number' || !y || layout.coverSize !== 'hero' || !image?.width || !image.height) return undefined;
  const scale = Math.max(HERO.width / image.width, HERO.height / image.height);
  const spare = HERO.height - image.height * scale;
  if (spare > -1) return undefined;
  const share = Math.min(1, Math.max(0, 0.5 + (y * scale) / spare));
  return Math.round(share * 20) * 5;
}

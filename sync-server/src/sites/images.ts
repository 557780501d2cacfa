import sharp from 'sharp';
import { LRUCache } from 'lru-cache';
import type { Queryable } from '../store/db';
import { getBlob, spaceFileHashes } from '../store/files';
import type { SpaceFile } from './contentSource';
import type { ImageSource } from './render/body';

/**
 * Images of a space served at the sizes a page shows them: each image gets WebP variants
 * (`srcset`) no wider than needed, made once per image content with sharp (prebuilt
 * libvips) and kept in memory, under URLs that name the revision, so they may be cached
 * for good. The original stays the fallback `src`, with width and height set so the page
 * does not jump while it loads. SVG gets its size only (it is drawn sharp at any width).
 */

/** Widths of the variants: a phone, the content column, and twice it for dense screens. */
export const VARIANT_WIDTHS = [480, 800, 1600];
const RESIZABLE = /^image\/(png|jpeg|webp|gif|avif|tiff)$/;

const variants = new LRUCache<string, Promise<Buffer | undefined>>({ max: 300 });
const dimensions = new LRUCache<string, Promise<{ width: number; height: number } | undefined>>({ max: 2000 });

export function isResizable(file: SpaceFile): boolean {
  return RESIZABLE.test(file.contentType);
}

/** Intrinsic size of a space image: from its record, else read once per content. */
export async function imageSize(db: Queryable, spaceId: string, file: SpaceFile): Promise<{ width: number; height: number } | undefined> {
  if (file.width && file.height) return { width: file.width, height: file.height };
  // SVG needs no variants, but its size keeps the page from jumping as well.
  if (!isResizable(file) && file.contentType !== 'image/svg+xml') return undefined;
  const hash = (await spaceFileHashes(db, spaceId, [file.id])).get(file.id);
  if (!hash) return undefined;
  let size = dimensions.get(hash);
  if (!size) {
    size = (async () => {
      const blob = await getBlob(db, hash);
      if (!blob) return undefined;
      const meta = await sharp(blob.content).metadata();
      return meta.width && meta.height ? { width: meta.width, height: meta.height } : undefined;
    })().catch(() => undefined);
    dimensions.set(hash, size);
  }
  return size;
}

/** `src`, `srcset`, width and height of a space image as a page shows it. */
export function imageSource(
  variantBase: string,
  original: string,
  file: SpaceFile,
  size: { width: number; height: number } | undefined,
): ImageSource {
  if (!size || !isResizable(file)) return { src: original, width: size?.width, height: size?.height };
  const widths = VARIANT_WIDTHS.filter((w) => w < size.width);
  if (!widths.length) return { src: original, width: size.width, height: size.height };
  const set = [...widths.map((w) => `${variantBase}/${w}.webp ${w}w`), `${original} ${size.width}w`];
  return { src: original, srcSet: set.join(', '), width: size.width, height: size.height };
}

/** The bytes of one variant (WebP), or undefined when the file is not an image of the space. */
export async function imageVariant(db: Queryable, spaceId: string, file: SpaceFile, width: number): Promise<Buffer | undefined> {
  if (!isResizable(file) || !VARIANT_WIDTHS.includes(width)) return undefined;
  const hash = (await spaceFileHashes(db, spaceId, [file.id])).get(file.id);
  if (!hash) return undefined;
  const key = `${hash}:${width}`;
  let out = variants.get(key);
  if (!out) {
    out = (async () => {
      const blob = await getBlob(db, hash);
      if (!blob) return undefined;
      // Every frame: an animated GIF or WebP stays animated at every width.
      return sharp(blob.content, { animated: true }).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
    })().catch(() => undefined);
    variants.set(key, out);
  }
  return out;
}

import sharp from 'sharp';
import { FetchError, guardedFetch } from '../security/fetchGuard';
import type { PdfImage } from './model';

/**
 * Images made printable: pdfkit embeds PNG and JPEG only, so SVG, GIF (its first frame),
 * WebP, AVIF and TIFF are converted with sharp (prebuilt libvips), any image wider than
 * print needs is scaled down, and images on other
 * sites are fetched through the fetch guard first. Whatever fails prints as a card
 * naming the image, never as an error.
 */

/** Images on other sites: each fetch is bounded in time and size, and so is their number. */
export interface RemoteImageLimits {
  /** `ALLOW_PRIVATE_FETCH`: only for tests and private mirrors. */
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
  /** Images past this many in one export print as cards. */
  maxImages: number;
  trustedAddresses?: readonly string[];
}

export const REMOTE_IMAGE_LIMITS: Omit<RemoteImageLimits, 'allowPrivate'> = { timeoutMs: 5000, maxBytes: 8 * 1024 * 1024, maxImages: 60 };

/**
 * Wider images are scaled down to what print needs: the text column is 483 pt (644 px at
 * 96 dpi) wide, and twice that prints sharp (about 190 dpi). A screenshot of a wide screen
 * is several times that, and its bytes would make most of the file.
 */
const MAX_WIDTH = 1300;
/** SVG is drawn at twice its size (libvips reads SVG at 72 dpi), then printed at its own size. */
const SVG_SCALE = 2;
const NATIVE = /^image\/(png|jpe?g)$/;

/** Bytes of an image in any format sharp reads, as an image pdfkit embeds. */
export async function printableImage(bytes: Buffer, contentType: string): Promise<PdfImage> {
  const type = contentType.toLowerCase().split(';')[0]?.trim() ?? '';
  if (NATIVE.test(type) && !(await widerThanPrint(bytes))) return { data: bytes };
  try {
    const svg = type === 'image/svg+xml';
    // Pixel and size limits so a hostile file cannot make the server draw a huge bitmap.
    const input = sharp(bytes, { animated: false, limitInputPixels: 40_000_000, ...(svg ? { density: 72 * SVG_SCALE } : {}) });
    const meta = await input.metadata();
    if (!meta.width || !meta.height) return { unsupported: type || 'unknown format' };
    const resized = meta.width > MAX_WIDTH ? input.resize({ width: MAX_WIDTH }) : input;
    // Photos stay JPEG-sized; anything with transparency keeps it as PNG.
    const data = meta.hasAlpha || svg ? await resized.png().toBuffer() : await resized.jpeg({ quality: 85 }).toBuffer();
    const shownWidth = svg ? meta.width / SVG_SCALE : meta.width;
    const drawnWidth = Math.min(meta.width, MAX_WIDTH);
    return { data, scale: drawnWidth / shownWidth };
  } catch {
    return { unsupported: type || 'unknown format' };
  }
}

async function widerThanPrint(bytes: Buffer): Promise<boolean> {
  try {
    return ((await sharp(bytes).metadata()).width ?? 0) > MAX_WIDTH;
  } catch {
    return false;
  }
}

/** An image from another site, fetched through the guard and made printable. */
export async function remoteImage(url: string, limits: RemoteImageLimits): Promise<PdfImage> {
  try {
    const res = await guardedFetch(url, limits);
    if (res.status < 200 || res.status >= 300) return { unsupported: `not available: HTTP ${res.status}` };
    const declared = String(res.headers['content-type'] ?? '');
    // Servers often send images as octet streams: the bytes say what they are.
    const type = declared.startsWith('image/') ? declared : await sniff(res.body);
    if (!type) return { unsupported: 'not an image' };
    return await printableImage(res.body, type);
  } catch (err) {
    if (err instanceof FetchError) return { unsupported: err.failure === 'TOO_LARGE' ? 'too large' : 'not reachable' };
    return { unsupported: 'not reachable' };
  }
}

async function sniff(bytes: Buffer): Promise<string | undefined> {
  try {
    const format = (await sharp(bytes).metadata()).format;
    return format === 'svg' ? 'image/svg+xml' : format ? `image/${format}` : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `fn` over `items`, `width` at a time. */
export async function inBatches<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(fn));
}

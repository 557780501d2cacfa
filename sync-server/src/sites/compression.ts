import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'hono';
import { LRUCache } from 'lru-cache';

/**
 * Answers of text (HTML, CSS, JS, JSON, markdown, llms.txt, sitemap) compressed as the
 * reader's `Accept-Encoding` asks: brotli first, else gzip. An `Encoded` body keeps each
 * compressed form beside the plain bytes once made, so a page served from the render
 * cache is compressed once, not per request. Images are never passed here (already
 * compressed), nor are bodies too small to gain anything.
 */

export type Coding = 'br' | 'gzip';

/** Below this, headers and framing outweigh what compression saves. */
export const MIN_COMPRESSED_BYTES = 1024;

/** Brotli's quality for pages made per request: most of the gain for a fraction of quality 11's time. */
export const DYNAMIC_QUALITY = 5;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export class Encoded {
  readonly plain: Buffer;
  /** A strong validator of the plain bytes; each coding gets its own (`"…-br"`), as RFC 9110 asks. */
  readonly tag: string;
  private readonly coded = new Map<Coding, Promise<Buffer>>();

  constructor(
    body: string | Uint8Array,
    private readonly quality = DYNAMIC_QUALITY,
  ) {
    this.plain = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    this.tag = createHash('sha256').update(this.plain).digest('base64url').slice(0, 27);
  }

  get compressible(): boolean {
    return this.plain.length >= MIN_COMPRESSED_BYTES;
  }

  /** The body in `coding`, made on first use and kept. */
  bytes(coding: Coding): Promise<Buffer> {
    let made = this.coded.get(coding);
    if (!made) {
      made =
        coding === 'br'
          ? brotli(this.plain, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: this.quality,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: this.plain.length,
              },
            })
          : gzipped(this.plain, { level: 6 });
      made.catch(() => this.coded.delete(coding));
      this.coded.set(coding, made);
    }
    return made;
  }
}

/** The coding to answer with: the acceptable one (q > 0) with the highest q, brotli on a tie. */
export function chooseCoding(acceptEncoding: string | undefined): Coding | undefined {
  if (!acceptEncoding) return undefined;
  const q: Record<string, number> = {};
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q[name] = Number.isFinite(value) ? value : 0;
  }
  const of = (name: Coding) => q[name] ?? q['*'] ?? 0;
  const br = of('br');
  const gz = Math.max(of('gzip'), q['x-gzip'] ?? 0);
  if (br <= 0 && gz <= 0) return undefined;
  return br >= gz ? 'br' : 'gzip';
}

function addVary(c: Context, field: string): void {
  const vary = c.res.headers.get('Vary') ?? '';
  const names = vary
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (!names.some((n) => n.toLowerCase() === field.toLowerCase())) c.header('Vary', [...names, field].join(', '));
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * Answers `body` with `status` and `type`, compressed when the request accepts it and the
 * body is worth it; `304` when the request already holds these bytes (`If-None-Match`).
 */
export async function sendEncoded(c: Context, status: number, body: Encoded, type: string): Promise<Response> {
  let coding = body.compressible ? chooseCoding(c.req.header('accept-encoding')) : undefined;
  let bytes = body.plain;
  if (body.compressible) addVary(c, 'Accept-Encoding');
  if (coding) {
    const made = await body.bytes(coding);
    if (made.length < bytes.length) bytes = made;
    else coding = undefined;
  }
  const etag = `"${body.tag}${coding ? `-${coding}` : ''}"`;
  c.header('ETag', etag);
  if (status === 200 && matches(c.req.header('if-none-match'), etag)) return c.body(null, 304);
  c.header('Content-Type', type);
  if (coding) c.header('Content-Encoding', coding);
  c.header('Content-Length', String(bytes.length));
  const out = new Uint8Array(bytes.byteLength);
  out.set(bytes);
  return c.body(out, status as 200);
}

/**
 * Bodies made per request (markdown, llms.txt, sitemap, search) found again by their
 * digest, so the same bytes asked for again are not compressed again.
 */
const recent = new LRUCache<string, Encoded>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (e) => e.plain.length * 2 || 1 });

export function encodedOf(body: string): Encoded {
  const fresh = new Encoded(body);
  if (!fresh.compressible) return fresh;
  const known = recent.get(fresh.tag);
  if (known) return known;
  recent.set(fresh.tag, fresh);
  return fresh;
}

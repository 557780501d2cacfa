import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printableImage, REMOTE_IMAGE_LIMITS, remoteImage } from './images';
import { SVG } from '../../testing/pdfContent';

const solid = () => sharp({ create: { width: 64, height: 32, channels: 3, background: '#c82828' } });

let server: Server;
let base: string;
const limits = { ...REMOTE_IMAGE_LIMITS, allowPrivate: true };

beforeAll(async () => {
  const webp = await solid().webp().toBuffer();
  server = createServer((req, res) => {
    if (req.url === '/photo.webp') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(webp);
    else if (req.url === '/logo.svg') res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(SVG);
    else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<p>not an image</p>');
    else if (req.url === '/huge.png') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64 * 1024));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const format = async (img: Awaited<ReturnType<typeof printableImage>>) => {
  if (!('data' in img)) throw new Error(`not printable: ${img.unsupported}`);
  return (await sharp(img.data).metadata()).format;
};

describe('images made printable for PDFs', () => {
  it('scales a PNG or JPEG wider than print needs down, drawn at the same size, in a fraction of the bytes', async () => {
    // A photo's worth of detail: every pixel its own.
    const noise = randomBytes(3000 * 1600 * 3);
    const png = await sharp(noise, { raw: { width: 3000, height: 1600, channels: 3 } })
      .png()
      .toBuffer();
    const printed = await printableImage(png, 'image/png');
    if (!('data' in printed)) throw new Error('not printable');
    const meta = await sharp(printed.data).metadata();
    expect(meta.width).toBe(1300);
    expect(printed.scale).toBeCloseTo(1300 / 3000, 5);
    expect(printed.data.length).toBeLessThan(png.length / 3);
  });

  it('converts SVG (drawn at twice its size), GIF and WebP to PNG or JPEG, and keeps PNG and JPEG as they are', async () => {
    const svg = await printableImage(SVG, 'image/svg+xml');
    expect(await format(svg)).toBe('png');
    expect('data' in svg && svg.scale).toBe(2);
    expect('data' in svg && (await sharp(svg.data).metadata()).width).toBe(240);
    expect(await format(await printableImage(await solid().gif().toBuffer(), 'image/gif'))).toBe('png');
    expect(await format(await printableImage(await solid().webp().toBuffer(), 'image/webp'))).toBe('jpeg');
    const transparent = await sharp({ create: { width: 8, height: 8, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .webp()
      .toBuffer();
    expect(await format(await printableImage(transparent, 'image/webp'))).toBe('png');
    const png = await solid().png().toBuffer();
    expect(await printableImage(png, 'image/png')).toEqual({ data: png });
    expect(await printableImage(Buffer.from('garbage'), 'image/gif')).toEqual({ unsupported: 'image/gif' });
  });

  it('fetches images of other sites through the fetch guard, within size limits, and says why one could not be', async () => {
    expect(await format(await remoteImage(`${base}/photo.webp`, limits))).toBe('jpeg');
    expect(await format(await remoteImage(`${base}/logo.svg`, limits))).toBe('png');
    expect(await remoteImage(`${base}/missing.png`, limits)).toEqual({ unsupported: 'not available: HTTP 404' });
    expect(await remoteImage(`${base}/page.html`, limits)).toEqual({ unsupported: 'not an image' });
    expect(await remoteImage(`${base}/huge.png`, { ...limits, maxBytes: 1024 })).toEqual({ unsupported: 'too large' });
    // The server's own network stays out of reach unless the operator allows it.
    expect(await remoteImage(`${base}/photo.webp`, { ...limits, allowPrivate: false })).toEqual({ unsupported: 'not reachable' });
  });
});

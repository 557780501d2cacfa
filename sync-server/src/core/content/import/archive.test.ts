import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { pack } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { isGzip, isZip, readTarGz, readZip } from './archive';

/**
 * What an imported `.zip` or `.tar.gz` may unpack to: no more than `IMPORT_MAX_BYTES` in
 * all (however small each entry), no entry larger than that on its own, and no name
 * leaving the archive (absolute paths, `..`). Nothing partial is kept from a refused one.
 */
const text = (s: string) => new TextEncoder().encode(s);
const read = (files: Map<string, Uint8Array>) => Object.fromEntries([...files].map(([k, v]) => [k, new TextDecoder().decode(v)]));

function zip(entries: Record<string, string | Uint8Array>, level: 0 | 9 = 9): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, [typeof v === 'string' ? text(v) : v, { level }]])));
}

type TarEntry = { name: string; body?: string | Buffer; type?: 'file' | 'directory' | 'symlink'; linkname?: string };
async function tarGz(entries: TarEntry[]): Promise<Uint8Array> {
  const p = pack();
  const chunks: Buffer[] = [];
  p.on('data', (c: unknown) => {
    chunks.push(c as Buffer);
  });
  const ended = new Promise<void>((r) => p.on('end', () => r()));
  for (const e of entries) {
    const body = e.type && e.type !== 'file' ? Buffer.alloc(0) : Buffer.from(e.body ?? '');
    p.entry({ name: e.name, type: e.type ?? 'file', linkname: e.linkname, size: body.length }, body);
  }
  p.finalize();
  await ended;
  return new Uint8Array(gzipSync(Buffer.concat(chunks)));
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'read',
    (err: { kind?: string; message: string }) => `${err.kind}: ${err.message}`,
  );

describe('telling archives apart', () => {
  it('knows a zip by its local header and a gzip by its magic bytes', async () => {
    expect(isZip(zip({ 'a.md': 'a' }))).toBe(true);
    expect(isGzip(await tarGz([{ name: 'a.md', body: 'a' }]))).toBe(true);
    for (const bytes of [
      [0x50, 0x4b, 0x03, 0x05],
      [0x50, 0x4b, 0x05, 0x04],
      [0x50, 0x4c, 0x03, 0x04],
      [0x51, 0x4b, 0x03, 0x04],
      [0x1f, 0x8c],
      [0x1e, 0x8b],
    ]) {
      expect(isZip(new Uint8Array(bytes)) || isGzip(new Uint8Array(bytes)), String(bytes)).toBe(false);
    }
    expect(isZip(new Uint8Array([0x1f, 0x8b, 0, 0]))).toBe(false);
    expect(isGzip(new Uint8Array([0x50, 0x4b, 3, 4]))).toBe(false);
  });
});

describe.each([
  ['zip', (files: TarEntry[], max: number) => readZip(zip(Object.fromEntries(files.map((f) => [f.name, f.body ?? '']))), max)],
  ['tar.gz', async (files: TarEntry[], max: number) => readTarGz(await tarGz(files), max)],
] as const)('a %s archive', (_kind, unpack) => {
  it('unpacks files by path, up to exactly the limit', async () => {
    const files = await unpack(
      [
        { name: 'docs/README.md', body: '# Hi' },
        { name: 'docs/guide/setup.md', body: 'setup' },
        { name: 'other.md', body: '12345' },
      ],
      14,
    );
    expect(read(files)).toEqual({ 'docs/README.md': '# Hi', 'docs/guide/setup.md': 'setup', 'other.md': '12345' });
  });

  it('refuses an archive unpacking to more than the limit in all, though each entry fits', async () => {
    const entries = Array.from({ length: 5 }, (_, i) => ({ name: `p${i}.md`, body: 'x'.repeat(300) }));
    expect(await refusal(unpack(entries, 1499))).toBe(
      'unprocessable: The archive could not be read: the archive unpacks to more than 1499 bytes. Nothing was imported.',
    );
    expect((await unpack(entries, 1500)).size).toBe(5);
  });

  it('refuses one entry larger than the limit', async () => {
    expect(await refusal(unpack([{ name: 'big.md', body: 'y'.repeat(4096) }], 4095))).toMatch(
      /more than 4095 bytes\. Nothing was imported\.$/,
    );
  });

  it('skips entries whose names leave the archive, keeping the rest', async () => {
    const files = await unpack(
      [
        { name: 'ok.md', body: 'ok' },
        { name: '../escape.md', body: 'out' },
        { name: 'a/../../escape.md', body: 'out' },
        { name: '/etc/passwd.md', body: 'abs' },
        { name: '..\\win.md', body: 'out' },
        { name: './dot/inside.md', body: 'in' },
        { name: './/twice/inside.md', body: 'in2' },
        { name: 'sub\\back.md', body: 'slash' },
        { name: 'a..b.md', body: 'dots' },
      ],
      1 << 20,
    );
    expect(read(files)).toEqual({
      'ok.md': 'ok',
      'dot/inside.md': 'in',
      'twice/inside.md': 'in2',
      'sub/back.md': 'slash',
      'a..b.md': 'dots',
    });
  });

  it('reads from inside the one folder wrapping everything, leaving out macOS litter', async () => {
    const files = await unpack(
      [
        { name: 'repo-main/README.md', body: 'r' },
        { name: 'repo-main/.gitbook/assets/a.png', body: 'png' },
        { name: 'repo-main/guide/x.md', body: 'x' },
        { name: '__MACOSX/repo-main/._README.md', body: 'junk' },
        { name: 'repo-main/.DS_Store', body: 'junk' },
      ],
      1 << 20,
    );
    expect(read(files)).toEqual({ 'README.md': 'r', '.gitbook/assets/a.png': 'png', 'guide/x.md': 'x' });
  });

  it('keeps the folder when not everything sits in it', async () => {
    const hidden = await unpack(
      [
        { name: 'repo/README.md', body: 'r' },
        { name: '.gitbook.yaml', body: 'root: ./' },
      ],
      1 << 20,
    );
    expect([...hidden.keys()].sort()).toEqual(['.gitbook.yaml', 'repo/README.md']);
    const two = await unpack(
      [
        { name: 'a/README.md', body: 'a' },
        { name: 'b/README.md', body: 'b' },
      ],
      1 << 20,
    );
    expect([...two.keys()].sort()).toEqual(['a/README.md', 'b/README.md']);
    const prefix = await unpack(
      [
        { name: 'doc/README.md', body: 'a' },
        { name: 'docs/x.md', body: 'b' },
      ],
      1 << 20,
    );
    expect([...prefix.keys()].sort()).toEqual(['doc/README.md', 'docs/x.md']);
    const flat = await unpack([{ name: 'README.md', body: 'a' }], 1 << 20);
    expect([...flat.keys()]).toEqual(['README.md']);
  });
});

describe('a zip archive', () => {
  it('stops a zip bomb at the limit: an entry declaring more than the limit is refused before it inflates', async () => {
    const bomb = zip({ 'bomb.md': new Uint8Array(8 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await refusal(readZip(bomb, 1024 * 1024))).toMatch(/unpacks to more than 1048576 bytes/);
  });

  it('refuses an entry inflating to more than it declares', async () => {
    const bytes = zip({ 'a.md': 'z'.repeat(1000) });
    // The central directory's uncompressed size of the one entry, set lower than the real one.
    const view = Buffer.from(bytes);
    const central = view.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    view.writeUInt32LE(10, central + 24);
    view.writeUInt32LE(10, 22);
    expect(await refusal(readZip(new Uint8Array(view), 1 << 20))).toMatch(/^unprocessable: The archive could not be read: /);
  });

  it('refuses a zip whose later directory entry is broken, or whose entry is encrypted, instead of failing the server', async () => {
    const broken = Buffer.from(zip({ 'a.md': 'a', 'b.md': 'b' }));
    const second = broken.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), broken.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 4);
    broken.writeUInt32LE(0x12345678, second);
    expect(await refusal(readZip(new Uint8Array(broken), 1 << 20))).toMatch(
      /^unprocessable: The archive could not be read: .+\. Nothing was imported\.$/,
    );
    const encrypted = Buffer.from(zip({ 'a.md': 'secret' }));
    const central = encrypted.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    encrypted.writeUInt16LE(encrypted.readUInt16LE(central + 8) | 1, central + 8);
    encrypted.writeUInt16LE(encrypted.readUInt16LE(6) | 1, 6);
    expect(await refusal(readZip(new Uint8Array(encrypted), 1 << 20))).toMatch(
      /^unprocessable: The archive could not be read: .*encrypted/,
    );
  });

  it('skips directories and refuses what is no zip', async () => {
    expect(read(await readZip(zip({ 'a/': new Uint8Array(), 'a/b.md': 'b', 'c.md': 'c' }), 1 << 20))).toEqual({
      'a/b.md': 'b',
      'c.md': 'c',
    });
    expect(await refusal(readZip(text('PK\u0003\u0004 not really'), 1 << 20))).toMatch(
      /^unprocessable: The archive could not be read: .+\. Nothing was imported\.$/,
    );
  });
});

describe('a tar.gz archive', () => {
  it('keeps regular files only: no links, no directories', async () => {
    const files = await readTarGz(
      await tarGz([
        { name: 'docs', type: 'directory' },
        { name: 'docs/a.md', body: 'a' },
        { name: 'docs/link.md', type: 'symlink', linkname: '/etc/passwd' },
        { name: 'b.md', body: 'b' },
      ]),
      1 << 20,
    );
    expect(read(files)).toEqual({ 'docs/a.md': 'a', 'b.md': 'b' });
  });

  it('refuses what is no gzip, or a gzip of no tar', async () => {
    expect(await refusal(readTarGz(text('not gzip at all'), 1 << 20))).toMatch(
      /^unprocessable: The archive could not be read: .+\. Nothing was imported\.$/,
    );
    expect(await refusal(readTarGz(new Uint8Array(gzipSync(Buffer.from('x'.repeat(700)))), 1 << 20))).toMatch(/^unprocessable: /);
  });
});

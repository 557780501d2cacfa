import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { unprocessable } from '@quire/shared/domainErrors';
import yauzl from 'yauzl';

/** Files of an archive by path (`/`-separated, no leading `./`), directories left out. */
export type ArchiveFiles = Map<string, Uint8Array>;

export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Paths inside an archive must stay inside it: no absolute paths, no `..` segments. */
function safePath(name: string): string | undefined {
  const path = name.replace(/\\/g, '/').replace(/^\.\/+/, '');
  if (!path || path.startsWith('/') || path.split('/').includes('..')) return undefined;
  return path;
}

/**
 * Reads a zip archive. Entries are inflated as streams by zlib (on its thread pool, not
 * the event loop) with a running count of the bytes they produce: the read stops as soon
 * as the archive unpacks to more than `maxBytes`, and an entry that inflates to more than
 * its declared size is refused at once, so a zip bomb costs no more than the limit.
 */
export async function readZip(bytes: Uint8Array, maxBytes: number): Promise<ArchiveFiles> {
  const out: ArchiveFiles = new Map();
  let total = 0;
  const tooLarge = () => new Error(`the archive unpacks to more than ${maxBytes} bytes`);
  try {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      // Names are decoded here, not by yauzl, which refuses a whole archive over one unsafe name: those are skipped.
      yauzl.fromBuffer(
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        { lazyEntries: true, decodeStrings: false, validateEntrySizes: true },
        (err, z) => (err ? reject(err) : resolve(z)),
      ),
    );
    await new Promise<void>((resolve, reject) => {
      const fail = (err: Error) => {
        zip.close();
        reject(err);
      };
      zip.on('error', fail);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = Buffer.isBuffer(entry.fileName) ? (entry.fileName as unknown as Buffer).toString('utf8') : entry.fileName;
        const path = safePath(name);
        if (name.endsWith('/') || !path) return zip.readEntry();
        if (total + entry.uncompressedSize > maxBytes) return fail(tooLarge());
        zip.openReadStream(entry, (err, stream) => {
          if (err) return fail(err);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => {
            total += chunk.length;
            if (total > maxBytes) stream.destroy(tooLarge());
            else chunks.push(chunk);
          });
          stream.on('error', fail);
          stream.on('end', () => {
            out.set(path, new Uint8Array(Buffer.concat(chunks)));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  } catch (err) {
    throw unprocessable(`The archive could not be read: ${(err as Error).message}. Nothing was imported.`);
  }
  return stripCommonFolder(out);
}

export async function readTarGz(bytes: Uint8Array, maxBytes: number): Promise<ArchiveFiles> {
  const out: ArchiveFiles = new Map();
  const ex = extract();
  let total = 0;
  const done = new Promise<void>((resolve, reject) => {
    ex.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => {
        const c = chunk as Buffer;
        total += c.length;
        if (total > maxBytes) stream.destroy(new Error(`the archive unpacks to more than ${maxBytes} bytes`));
        else chunks.push(c);
      });
      stream.on('error', reject);
      stream.on('end', () => {
        const path = safePath(header.name);
        if (header.type === 'file' && path) out.set(path, new Uint8Array(Buffer.concat(chunks)));
        next();
      });
    });
    ex.on('finish', resolve);
    ex.on('error', reject);
  });
  const gunzip = createGunzip();
  gunzip.on('error', (err) => ex.destroy(err));
  Readable.from([Buffer.from(bytes)])
    .pipe(gunzip)
    .pipe(ex);
  try {
    await done;
  } catch (err) {
    throw unprocessable(`The archive could not be read: ${(err as Error).message}. Nothing was imported.`);
  }
  return stripCommonFolder(out);
}

/** Archives of a repository often wrap everything in one folder (`repo-main/`): read from inside it. */
function stripCommonFolder(files: ArchiveFiles): ArchiveFiles {
  const kept = [...files.keys()].filter((p) => !p.split('/').includes('__MACOSX') && !p.endsWith('.DS_Store'));
  // Hidden files (`.gitbook/assets/…`) are kept but do not decide whether everything sits in one folder.
  const visible = kept.filter((p) => !p.split('/').some((s) => s.startsWith('.')));
  const first = visible[0]?.split('/')[0];
  const wrapped = !!first && visible.every((p) => p.startsWith(`${first}/`)) && kept.every((p) => p.startsWith(`${first}/`));
  return new Map(kept.map((p) => [wrapped ? p.slice((first as string).length + 1) : p, files.get(p) as Uint8Array]));
}

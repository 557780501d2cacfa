import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { unzipSync } from 'fflate';
import { extract } from 'tar-stream';
import { unprocessable } from '@quire/shared/apiErrors';

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

export function readZip(bytes: Uint8Array, maxBytes: number): ArchiveFiles {
  let total = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (f) => {
        total += f.originalSize;
        if (total > maxBytes) throw new Error(`the archive unpacks to more than ${maxBytes} bytes`);
        return !f.name.endsWith('/') && !!safePath(f.name);
      },
    });
  } catch (err) {
    throw unprocessable(`The archive could not be read: ${(err as Error).message}. Nothing was imported.`);
  }
  const out: ArchiveFiles = new Map();
  for (const [name, data] of Object.entries(entries)) {
    const path = safePath(name);
    if (path) out.set(path, data);
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

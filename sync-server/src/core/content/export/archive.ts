import { gzipSync } from 'node:zlib';
import { type Zippable, zipSync } from 'fflate';
import { pack } from 'tar-stream';
import type { ExportFiles } from './markdown';

/** One fixed time for every entry: the same content always packs to the same bytes. */
const EPOCH = new Date('2000-01-01T00:00:00Z');

export type ArchiveFormat = 'zip' | 'tar.gz';

/**
 * An entry's name, once it is sure to stay inside the folder the archive unpacks to: relative,
 * `/` between segments, none of them empty, `.` or `..`, no backslash, drive letter or control
 * character. The export makes its names so (slugs and file names come out plain); this is the
 * last check before the bytes, so a name that slipped through fails the export instead of
 * writing where an unpacking tool would leave the folder.
 */
export function entryName(path: string): string {
  const outside =
    /[\\\u0000-\u001f\u007f]/.test(path) ||
    /^[A-Za-z]:/.test(path) ||
    path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..');
  if (outside) throw new Error(`An export entry would be written outside the archive: ${JSON.stringify(path)}.`);
  return path;
}

export function packZip(files: ExportFiles): Uint8Array {
  const entries: Zippable = {};
  for (const [path, bytes] of files) entries[entryName(path)] = [bytes, { mtime: EPOCH }];
  return zipSync(entries, { level: 6 });
}

export async function packTarGz(files: ExportFiles): Promise<Uint8Array> {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    tar.on('end', resolve);
    tar.on('error', reject);
  });
  for (const [path, bytes] of files) tar.entry({ name: entryName(path), mtime: EPOCH, mode: 0o644 }, Buffer.from(bytes));
  tar.finalize();
  await done;
  return new Uint8Array(gzipSync(Buffer.concat(chunks), { level: 6 }));
}

export function packArchive(files: ExportFiles, format: ArchiveFormat): Promise<Uint8Array> {
  return format === 'zip' ? Promise.resolve(packZip(files)) : packTarGz(files);
}

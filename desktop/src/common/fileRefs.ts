/**
 * How a block refers to a space file. `file:<id>` is the server's address of a file; a file
 * inserted here is referred to as `upload:<id>` until the server acknowledged its bytes, so
 * no page the server holds points at a file it does not have yet. The LocalNode then points
 * the blocks at `file:<id>` (images: `src`; file blocks: `fileId`, with `src` cleared).
 */
const FILE = /^file:([A-Za-z0-9_-]{1,64})$/;
const UPLOADING = /^upload:([A-Za-z0-9_-]{1,64})$/;

export const uploadingRef = (fileId: string) => `upload:${fileId}`;

/** The file an address names, whether uploaded (`file:`) or still on its way (`upload:`). */
export function fileIdOf(src: unknown): string | null {
  if (typeof src !== 'string') return null;
  return (FILE.exec(src) ?? UPLOADING.exec(src))?.[1] ?? null;
}

/** The file an `upload:` address names: its bytes are on this machine only, so far. */
export function uploadingIdOf(src: unknown): string | null {
  return typeof src === 'string' ? (UPLOADING.exec(src)?.[1] ?? null) : null;
}

import { Extension } from '@tiptap/core';
import type { Editor } from '@tiptap/core';
import { createContext, useContext, useEffect, useState } from 'react';
import type { BranchRef } from '../../common/ipc';
import { call } from '../bridge';
import { fileIdOf } from '../../common/fileRefs';
import { fromBase64, toBase64 } from '../sync/base64';

export { fileIdOf, uploadingIdOf } from '../../common/fileRefs';

/** Object URLs of files already read, by file id: a file's bytes never change under its id. */
const urls = new Map<string, Promise<string | null>>();

/**
 * A URL this window can show a space file at: its bytes come from the LocalNode (kept on
 * this machine, or fetched once from the server). Null while neither has them; asked again
 * on the next call then.
 */
export function fileUrl(branch: BranchRef, fileId: string): Promise<string | null> {
  let url = urls.get(fileId);
  if (!url) {
    url = call('files.read', { branch, fileId })
      .then((file) => (file ? URL.createObjectURL(new Blob([fromBase64(file.data) as BlobPart], { type: file.contentType })) : null))
      .catch(() => null);
    urls.set(fileId, url);
    void url.then((u) => {
      if (!u) urls.delete(fileId);
    });
  }
  return url;
}

/**
 * Calls `onUrl` once a space file's URL is known: at once when it was read before, else
 * when the LocalNode has its bytes (asked again, less and less often, while it has not:
 * another writer's file reaches the server a moment after the page does). Answers a stop.
 */
export function watchFileUrl(branch: BranchRef, fileId: string, onUrl: (url: string) => void): () => void {
  let live = true;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const load = (delay: number) => {
    void fileUrl(branch, fileId).then((url) => {
      if (!live) return;
      if (url) onUrl(url);
      else retry = setTimeout(() => load(Math.min(delay * 2, 10_000)), delay);
    });
  };
  load(1000);
  return () => {
    live = false;
    clearTimeout(retry);
  };
}

/** The URL to show `src` at: a file's object URL once read, a web address as it is. */
export function useImageUrl(branch: BranchRef | null, src: string): string | null {
  const fileId = fileIdOf(src);
  const [resolved, setResolved] = useState<string | null>(null);
  useEffect(() => {
    setResolved(null);
    if (!fileId || !branch) return;
    return watchFileUrl(branch, fileId, setResolved);
  }, [fileId, branch?.spaceId, branch?.changeRequestId]);
  if (fileId) return resolved;
  return /^(https?:|data:image\/|blob:)/i.test(src) ? src : null;
}

/** Keeps a picked, pasted or dropped file as a space file of the branch; its id for the block. */
export async function storeFile(branch: BranchRef, file: Blob, name: string, dimensions?: { width: number; height: number }) {
  const data = toBase64(new Uint8Array(await file.arrayBuffer()));
  const stored = await call('files.put', {
    branch,
    name: name.replace(/[/\\]/g, '-').slice(0, 255) || 'file',
    contentType: file.type || 'application/octet-stream',
    data,
    ...(dimensions ? { width: dimensions.width, height: dimensions.height } : {}),
  });
  urls.set(stored.id, Promise.resolve(URL.createObjectURL(file)));
  return stored;
}

/** The branch an editor writes to, for its file blocks. */
export const BranchFiles = Extension.create<{ branch: BranchRef | null }>({
  name: 'branchFiles',
  addOptions: () => ({ branch: null }),
});

export function editorBranch(editor: Editor): BranchRef | null {
  return (
    (editor.extensionManager.extensions.find((e) => e.name === 'branchFiles')?.options as { branch: BranchRef | null } | undefined)
      ?.branch ?? null
  );
}

/** The branch whose files a read-only view (a change request's diff) shows. */
export const FilesBranch = createContext<BranchRef | null>(null);
export const useFilesBranch = () => useContext(FilesBranch);

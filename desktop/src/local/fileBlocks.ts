import { type FileInfo, addFile, getFile } from '@quire/shared/content/files';
import { bodyFragment, pagesMap } from '@quire/shared/content/layout';
import * as Y from 'yjs';
import { uploadingIdOf } from '../common/fileRefs';

/** Block attributes that may hold a file's address, by node name. */
const ADDRESSES: Record<string, string[]> = { image: ['src', 'srcDark'], inlineImage: ['src'], file: ['src'] };

interface Uploading {
  element: Y.XmlElement;
  attribute: string;
  fileId: string;
}

/** Every block of every page that refers to a file as `upload:<id>`. */
function uploadingBlocks(doc: Y.Doc): Uploading[] {
  const found: Uploading[] = [];
  const walk = (node: Y.XmlFragment | Y.XmlElement) => {
    for (const child of node.toArray()) {
      if (!(child instanceof Y.XmlElement)) continue;
      for (const attribute of ADDRESSES[child.nodeName] ?? []) {
        const fileId = uploadingIdOf(child.getAttribute(attribute));
        if (fileId) found.push({ element: child, attribute, fileId });
      }
      walk(child);
    }
  };
  for (const page of pagesMap(doc).values()) {
    const body = page instanceof Y.Map ? bodyFragment(page, false) : null;
    if (body) walk(body);
  }
  return found;
}

/** The files the branch's pages refer to as still uploading. */
export function uploadingFileIds(doc: Y.Doc): string[] {
  return [...new Set(uploadingBlocks(doc).map((b) => b.fileId))];
}

/**
 * The server has these files' bytes: the branch records each file and its blocks point at
 * `file:<id>`, in one transaction (so the server never lists a file, nor shows a block of
 * one, before it has the bytes). Returns how many blocks changed.
 */
export function pointAtUploadedFiles(doc: Y.Doc, files: FileInfo[]): number {
  const byId = new Map(files.map((f) => [f.id, f]));
  const blocks = uploadingBlocks(doc).filter((b) => byId.has(b.fileId));
  if (!blocks.length && files.every((f) => getFile(doc, f.id))) return 0;
  doc.transact(() => {
    for (const file of files) if (!getFile(doc, file.id)) addFile(doc, file);
    for (const { element, attribute, fileId } of blocks) {
      if (element.nodeName === 'file') {
        element.setAttribute('fileId', fileId);
        element.removeAttribute(attribute);
      } else {
        element.setAttribute(attribute, `file:${fileId}`);
      }
    }
  });
  return blocks.length;
}

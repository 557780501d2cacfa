import type * as Y from 'yjs';
import { invalid, notFound } from './errors';
import { isRecord } from './json';
import { filesMap, readJson } from './layout';
import { type GitSource, readGitSource } from './pageRecord';

/** A file uploaded to a space; its bytes live in storage, only this record lives in the branch. */
export interface FileInfo {
  id: string;
  name: string;
  contentType: string;
  size: number;
  dimensions?: { width: number; height: number };
  /** The repository file it came from, when imported from one. */
  git?: GitSource;
}

/**
 * Records a file in the branch (stored as one plain JSON value, so a rename and a
 * concurrent delete resolve to one outcome). Bodies refer to it as `file:<id>`.
 */
export function addFile(doc: Y.Doc, file: FileInfo): FileInfo {
  if (!file.id) throw invalid('a file needs an id');
  const record = toFileInfo(file.id, file);
  if (!record) throw invalid('a file needs a name, a content type and a size');
  filesMap(doc).set(file.id, { ...record });
  return record;
}

/** Files sorted by name, then id, so lists are stable. */
export function listFiles(doc: Y.Doc): FileInfo[] {
  const files: FileInfo[] = [];
  filesMap(doc).forEach((value, id) => {
    const file = toFileInfo(id, readJson(value));
    if (file) files.push(file);
  });
  return files.sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1));
}

export function getFile(doc: Y.Doc, fileId: string): FileInfo | null {
  return toFileInfo(fileId, readJson(filesMap(doc).get(fileId)));
}

/** Renames a file (or changes its recorded type/size after a re-upload). */
export function updateFile(doc: Y.Doc, fileId: string, fields: Partial<Omit<FileInfo, 'id'>>): FileInfo {
  const current = getFile(doc, fileId);
  if (!current) throw notFound('file', fileId);
  return addFile(doc, { ...current, ...fields, id: fileId });
}

/** Forgets a file; bodies that still refer to it show up as broken links. */
export function removeFile(doc: Y.Doc, fileId: string): void {
  filesMap(doc).delete(fileId);
}

function toFileInfo(id: string, value: unknown): FileInfo | null {
  if (!isRecord(value)) return null;
  const { name, contentType, size, dimensions, git } = value;
  if (typeof name !== 'string' || typeof contentType !== 'string' || typeof size !== 'number' || !Number.isFinite(size)) {
    return null;
  }
  const file: FileInfo = { id, name, contentType, size };
  if (isRecord(dimensions) && typeof dimensions.width === 'number' && typeof dimensions.height === 'number') {
    file.dimensions = { width: dimensions.width, height: dimensions.height };
  }
  const source = readGitSource(git);
  if (source) file.git = source;
  return file;
}

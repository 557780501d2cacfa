import * as Y from 'yjs';
import { newId } from '../ids';
import { readBody, writeBody } from './body';
import { invalid, notFound } from './errors';
import type { NodeJSON } from './json';
import { bodyFragment, readString, reusableContentsMap } from './layout';
import { markdownToBody } from './markdown/parse';
import { bodyToMarkdown } from './markdown/serialize';
import { emptyBody } from './normalize';

/**
 * A block of content written once and shown in several pages. Stored like a page body
 * (`reusableContents` → Y.Map `{title, body}`), so the same editor binding edits it.
 */
export interface ReusableContent {
  id: string;
  title: string;
}

export function createReusableContent(doc: Y.Doc, input: { id?: string; title: string; document?: NodeJSON; markdown?: string }): string {
  const id = input.id ?? newId();
  if (reusableContentsMap(doc).has(id)) throw invalid(`reusable content ${id} already exists`);
  const body = input.document ?? (input.markdown !== undefined ? markdownToBody(input.markdown).doc : emptyBody());
  doc.transact(() => {
    const map = new Y.Map<unknown>();
    reusableContentsMap(doc).set(id, map);
    map.set('title', input.title);
    const fragment = new Y.XmlFragment();
    map.set('body', fragment);
    writeBody(fragment, body);
  });
  return id;
}

/** Reusable contents sorted by title, then id. */
export function listReusableContents(doc: Y.Doc): ReusableContent[] {
  const out: ReusableContent[] = [];
  reusableContentsMap(doc).forEach((value, id) => {
    if (value instanceof Y.Map) out.push({ id, title: readString(value, 'title') ?? '' });
  });
  return out.sort((a, b) => (a.title === b.title ? (a.id < b.id ? -1 : 1) : a.title < b.title ? -1 : 1));
}

export function getReusableContent(doc: Y.Doc, id: string): ReusableContent | null {
  const map = findMap(doc, id);
  return map ? { id, title: readString(map, 'title') ?? '' } : null;
}

export function renameReusableContent(doc: Y.Doc, id: string, title: string): void {
  requireMap(doc, id).set('title', title);
}

export function deleteReusableContent(doc: Y.Doc, id: string): void {
  reusableContentsMap(doc).delete(id);
}

export function getReusableContentDocument(doc: Y.Doc, id: string): NodeJSON {
  return readBody(bodyFragment(requireMap(doc, id), false));
}

export function setReusableContentDocument(doc: Y.Doc, id: string, body: NodeJSON): void {
  const map = requireMap(doc, id);
  doc.transact(() => writeBody(bodyFragment(map, true) as Y.XmlFragment, body));
}

export function getReusableContentMarkdown(doc: Y.Doc, id: string): string {
  return bodyToMarkdown(getReusableContentDocument(doc, id));
}

export function setReusableContentMarkdown(doc: Y.Doc, id: string, markdown: string): void {
  setReusableContentDocument(doc, id, markdownToBody(markdown).doc);
}

function findMap(doc: Y.Doc, id: string): Y.Map<unknown> | null {
  const value = reusableContentsMap(doc).get(id);
  return value instanceof Y.Map ? value : null;
}

function requireMap(doc: Y.Doc, id: string): Y.Map<unknown> {
  const map = findMap(doc, id);
  if (!map) throw notFound('reusable content', id);
  return map;
}

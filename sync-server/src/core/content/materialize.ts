import { createHash } from 'node:crypto';
import type * as Y from 'yjs';
import {
  type BranchChanges,
  type FileMeta,
  type PageMeta,
  type Target,
  bodyTargets,
  readFiles,
  readPageBody,
  readPageMeta,
  readPageMetas,
  readReusableContents,
  readVariables,
} from './model';

/** A page as a revision keeps it: its metadata, when it changed, and what its body points at. */
export interface PageEntry extends PageMeta {
  createdAt: string;
  updatedAt: string;
  /** Every link, image, file and content reference of the body, once each. */
  links: Target[];
  /** Digest of the body, so an edit that changes only text still counts as a change. */
  digest: string;
}

export interface FileEntry extends FileMeta {}

export interface ReusableEntry {
  id: string;
  title: string;
}

/** What the REST reads of a revision serve, keyed by id. */
export interface Materialized {
  pages: Record<string, PageEntry>;
  files: Record<string, FileEntry>;
  variables: Record<string, string>;
  reusableContents: Record<string, ReusableEntry>;
}

/**
 * `Materialized` as stored: whole (`full`), or a patch over the base revision's where a
 * null entry is one removed since the base. Variables and reusable contents are small and
 * always stored whole.
 */
export interface StoredMaterialized {
  full: boolean;
  pages: Record<string, PageEntry | null>;
  files: Record<string, FileEntry | null>;
  variables: Record<string, string>;
  reusableContents: Record<string, ReusableEntry>;
}

/**
 * A record keyed by ids, without a prototype: ids come from requests, and `__proto__` or
 * `constructor` must find nothing rather than Object's own properties.
 */
export function byId<T>(from?: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, from);
}

export function emptyMaterialized(): Materialized {
  return { pages: byId(), files: byId(), variables: byId(), reusableContents: byId() };
}

export function asStored(m: Materialized): StoredMaterialized {
  return { full: true, ...m };
}

/** The whole content of a revision from its base's and its own stored patch. */
export function applyPatch(base: Materialized | undefined, stored: StoredMaterialized): Materialized {
  if (stored.full || !base) {
    return {
      pages: dropNulls(stored.pages),
      files: dropNulls(stored.files),
      variables: byId(stored.variables),
      reusableContents: byId(stored.reusableContents),
    };
  }
  const pages = byId(base.pages);
  for (const [id, e] of Object.entries(stored.pages)) {
    if (e) pages[id] = e;
    else delete pages[id];
  }
  const files = byId(base.files);
  for (const [id, e] of Object.entries(stored.files)) {
    if (e) files[id] = e;
    else delete files[id];
  }
  return { pages, files, variables: byId(stored.variables), reusableContents: byId(stored.reusableContents) };
}

function dropNulls<T>(r: Record<string, T | null>): Record<string, T> {
  const out = byId<T>();
  for (const [k, v] of Object.entries(r)) if (v) out[k] = v;
  return out;
}

export interface Rematerialized {
  next: Materialized;
  /** Pages added, changed (entry) or removed (null) by this step. */
  pageChanges: Map<string, PageEntry | null>;
  fileChanges: Map<string, FileEntry | null>;
}

/**
 * The content after some edits: entries of untouched pages are carried over as they are
 * (their timestamps too), so the cost follows what changed, not the size of the space.
 */
export function rematerialize(doc: Y.Doc, prev: Materialized, changes: BranchChanges | 'all', now: string): Rematerialized {
  const pages = byId(prev.pages);
  const pageChanges = new Map<string, PageEntry | null>();
  const touched = changes === 'all' ? new Set([...readPageMetas(doc).map((p) => p.id), ...Object.keys(prev.pages)]) : changes.pages;
  for (const id of touched) {
    const meta = readPageMeta(doc, id);
    const before = prev.pages[id];
    if (!meta) {
      if (before) {
        delete pages[id];
        pageChanges.set(id, null);
      }
      continue;
    }
    const body = readPageBody(doc, id);
    const entry: PageEntry = {
      ...meta,
      links: bodyTargets(body),
      digest: createHash('sha1').update(JSON.stringify(body)).digest('base64url'),
      createdAt: before?.createdAt ?? now,
      updatedAt: now,
    };
    if (before && sameEntry(before, entry)) continue;
    pages[id] = entry;
    pageChanges.set(id, entry);
  }

  let files = prev.files;
  const fileChanges = new Map<string, FileEntry | null>();
  if (changes === 'all' || changes.files) {
    files = byId();
    for (const f of readFiles(doc)) {
      files[f.id] = f;
      if (JSON.stringify(prev.files[f.id]) !== JSON.stringify(f)) fileChanges.set(f.id, f);
    }
    for (const id of Object.keys(prev.files)) if (!files[id]) fileChanges.set(id, null);
  }

  const variables = changes === 'all' || changes.variables ? byId(readVariables(doc)) : prev.variables;
  const reusableContents =
    changes === 'all' || changes.reusableContents
      ? byId(Object.fromEntries(readReusableContents(doc).map((r) => [r.id, r])))
      : prev.reusableContents;
  return { next: { pages, files, variables, reusableContents }, pageChanges, fileChanges };
}

/** Touched but unchanged (an edit undone, a no-op write): the old entry and its timestamps stay. */
function sameEntry(a: PageEntry, b: PageEntry): boolean {
  const strip = ({ updatedAt: _u, createdAt: _c, ...rest }: PageEntry) => rest;
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}

import { createHash } from 'node:crypto';
import {
  type GitSource,
  type JsonValue,
  type NodeJSON,
  addFile,
  createPages,
  createReusableContent,
  setReusableContentGit,
} from '@quire/shared/content/index';
import type * as Y from 'yjs';

/** A page an import will create; parents come before their children in a plan. */
export interface PlannedPage {
  id: string;
  parentId: string | null;
  title: string;
  type: 'document' | 'group' | 'link';
  /** From the file name (or a group's anchor); else the title gives it. */
  slug?: string;
  href?: string;
  body?: NodeJSON;
  description?: string;
  icon?: string;
  emoji?: string;
  cover?: { [key: string]: JsonValue } | null;
  hidden?: boolean;
  layout?: { [key: string]: JsonValue };
  /** The file the page was read from, in the imported folder's layout. */
  git?: GitSource;
  /** Its bytes, kept so an export can write the page back as it was while nobody changes it. */
  source?: Uint8Array;
  /** Its front matter keys in the file's order. */
  frontMatterKeys?: string[];
}

/** A file an import will store and record in the branch. */
export interface PlannedFile {
  id: string;
  name: string;
  contentType: string;
  bytes: Uint8Array;
  dimensions?: { width: number; height: number };
  git?: GitSource;
}

/** Reusable content an import will create from an included file (`{% include "…" %}`). */
export interface PlannedReusableContent {
  id: string;
  title: string;
  body: NodeJSON;
  /** The included file, and its bytes for an export to write back while nobody changes it. */
  git?: GitSource;
  source?: Uint8Array;
}

/** Something of the source an import kept only in part, or not at all, and where it was written. */
export interface UnmappedItem {
  /** The markdown file, as a path in the imported folder. */
  page: string;
  /** 1-based; 0 when the whole file is meant. */
  line: number;
  source: string;
  reason: string;
}

/**
 * Everything an import found, built before anything is written: a failure while fetching
 * or reading leaves the branch untouched.
 */
export interface ImportPlan {
  pages: PlannedPage[];
  files: PlannedFile[];
  reusableContents?: PlannedReusableContent[];
  unmapped?: UnmappedItem[];
  /** The table of contents the import read, when it read one from a repository. */
  summarySource?: { path: string; bytes: Uint8Array };
  /** Pages and files the source listed or linked. */
  totalResources: number;
  /** Those that could be read (a listed page whose file is missing is created empty and not counted). */
  importedResources: number;
}

/** Writes a plan's pages and file records into a branch document (after the existing pages). */
export function applyPlan(doc: Y.Doc, plan: ImportPlan) {
  doc.transact(() => {
    for (const f of plan.files) {
      addFile(doc, {
        id: f.id,
        name: f.name,
        contentType: f.contentType,
        size: f.bytes.byteLength,
        ...(f.dimensions ? { dimensions: f.dimensions } : {}),
        ...(f.git ? { git: f.git } : {}),
      });
    }
    for (const r of plan.reusableContents ?? []) {
      createReusableContent(doc, { id: r.id, title: r.title, document: r.body });
      if (r.git) setReusableContentGit(doc, r.id, { ...r.git, rendered: '' });
    }
    createPages(
      doc,
      plan.pages.map((p) => ({
        id: p.id,
        parent: p.parentId,
        title: p.title,
        type: p.type,
        ...(p.slug ? { slug: p.slug } : {}),
        ...(p.cover !== undefined ? { cover: p.cover } : {}),
        ...(p.hidden ? { hidden: true } : {}),
        ...(p.href !== undefined ? { href: p.href } : {}),
        ...(p.body ? { document: p.body } : {}),
        ...(p.description !== undefined ? { description: p.description } : {}),
        ...(p.icon !== undefined ? { icon: p.icon } : {}),
        ...(p.emoji !== undefined ? { emoji: p.emoji } : {}),
        ...(p.layout !== undefined ? { layout: p.layout } : {}),
        ...(p.git ? { git: p.git } : {}),
      })),
    );
  });
}

/** A repository file's place: its path and the id git gives its bytes (`sha1("blob <size>\0" + bytes)`). */
export function gitSource(path: string, bytes: Uint8Array): GitSource {
  const oid = createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
  return { oid, path };
}

/** Drops a body's first block when it is a level-1 heading: the page title already says it. */
export function withoutLeadingH1(body: NodeJSON): { body: NodeJSON; h1?: string } {
  const [first, ...rest] = body.content ?? [];
  if (first?.type !== 'heading' || Number(first.attrs?.level ?? 1) !== 1) return { body };
  const h1 = (first.content ?? [])
    .map((c) => c.text ?? '')
    .join('')
    .trim();
  return { body: { ...body, content: rest }, h1 };
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  avif: 'image/avif',
  pdf: 'application/pdf',
  zip: 'application/zip',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  txt: 'text/plain',
  csv: 'text/csv',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
};

/** A file's type from its name (archives carry no types), else what the server said, else bytes. */
export function contentTypeFor(name: string, served?: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  return TYPES[ext] ?? (served || 'application/octet-stream');
}

/** Width and height of PNG, GIF and JPEG images, read from their headers. */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length > 24 && b.readUInt32BE(0) === 0x89504e47) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length > 10 && b.toString('latin1', 0, 3) === 'GIF') return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1] as number;
      const len = b.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
      }
      i += 2 + len;
    }
  }
  return undefined;
}

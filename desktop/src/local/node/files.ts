import type { FileInfo } from '@quire/shared/content/files';
import { bodyFragment, findPageMap } from '@quire/shared/content/layout';
import { newId } from '@quire/shared/ids';
import * as Y from 'yjs';
import { uploadingRef } from '../../common/fileRefs';
import type { BranchRef } from '../../common/ipc';
import type { BranchDoc } from '../BranchDoc';
import { pointAtUploadedFiles, uploadingFileIds } from '../fileBlocks';
import { type LocalFile, fileRecords, getLocalFile, localOnlyFiles, putLocalFile } from '../store/files';
import type { Queryable } from '../store/database';
import { enqueue } from '../store/outbox';
import { LocalError, type NodeContext, type FilesPart } from './context';

/** The largest file inserted here: the server's default upload limit (`MAX_FILE_BYTES`). */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

export interface NewFile {
  name: string;
  contentType: string;
  bytes: Uint8Array;
  dimensions?: { width: number; height: number };
}

/** Block attributes that hold an image address, by node name. */
const IMAGE_SOURCES: Record<string, string[]> = { image: ['src', 'srcDark'], inlineImage: ['src'] };

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'image/avif': 'avif',
};

/**
 * Images and files of a branch as space files: stored on this machine at once (so they show
 * offline), uploaded by the outbox under the same id the page refers to (`file:<id>`), and
 * fetched from the server once when another writer inserted them.
 */
export class Files implements FilesPart {
  constructor(private readonly ctx: NodeContext) {}

  /**
   * Keeps a new file of a branch and queues its upload; answers at once. The block refers to
   * it as `upload:<id>` (`src`), which the branch turns into `file:<id>`, recording the file,
   * once the server acknowledged its bytes: a page never reaches the server pointing at a
   * file it does not have, and no page waits for an upload.
   */
  async put(ref: BranchRef, file: NewFile): Promise<FileInfo & { src: string }> {
    if (file.bytes.byteLength === 0) throw new LocalError(`${file.name} is empty.`);
    if (file.bytes.byteLength > MAX_FILE_BYTES) throw new LocalError(`${file.name} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB.`);
    const id = newId();
    await this.store(ref, [{ id, ...file }]);
    const info: FileInfo = { id, name: file.name, contentType: file.contentType, size: file.bytes.byteLength };
    if (file.dimensions) info.dimensions = file.dimensions;
    return { ...info, src: uploadingRef(id) };
  }

  /**
   * Points the branch's `upload:` blocks at the files the server now has (and records those
   * files in the branch): called when an upload is acknowledged, and when a branch is loaded
   * (an acknowledgement the app did not live to apply, a block copied from another branch).
   */
  async settleUploads(branch: BranchDoc): Promise<void> {
    const waiting = uploadingFileIds(branch.doc);
    if (!waiting.length) return;
    const uploaded = (await fileRecords(this.ctx.db, waiting)).filter((f) => f.state === 'uploaded' || f.state === 'fetched');
    if (!uploaded.length) return;
    pointAtUploadedFiles(
      branch.doc,
      uploaded.map(({ state: _, ...info }) => info),
    );
    await branch.saved();
  }

  /** The server acknowledged a file's bytes: the branch it was inserted in may now show it as `file:<id>`. */
  async uploaded(ref: BranchRef): Promise<void> {
    await this.ctx.branches.with(ref, (branch) => this.settleUploads(branch));
    // A branch nobody has open closed again before its sync connection sent the new reference.
    void this.ctx.branches.pushWaiting().catch(() => {});
  }

  /** The bytes of a file for display: from this machine, or fetched once from the server. */
  async read(ref: BranchRef, fileId: string): Promise<{ contentType: string; bytes: Uint8Array } | null> {
    const local = await getLocalFile(this.ctx.db, fileId);
    if (local) return { contentType: local.contentType, bytes: local.bytes };
    const fetched = await this.fetchFromServer(ref, fileId);
    if (!fetched) return null;
    await putLocalFile(this.ctx.db, fetched);
    return { contentType: fetched.contentType, bytes: fetched.bytes };
  }

  /**
   * Moves the images a page holds inline (`data:` URLs, as pages written before files were
   * files did) into space files, once: the files are stored (and their uploads queued)
   * first, then one transaction points the blocks at them. Returns how many moved.
   */
  async migratePage(ref: BranchRef, pageId: string): Promise<number> {
    return this.ctx.branches.with(ref, async (branch) => {
      const found = dataUrlImages(branch.doc, pageId);
      if (!found.length) return 0;
      const byUrl = new Map<string, FileInfo & { bytes: Uint8Array }>();
      for (const { url, alt } of found) {
        if (byUrl.has(url)) continue;
        const decoded = await decodeDataUrl(url);
        if (!decoded) continue;
        const id = newId();
        const base = (alt || 'image').replace(/[/\\]/g, '-').slice(0, 200);
        byUrl.set(url, {
          id,
          name: `${base}.${EXTENSIONS[decoded.contentType] ?? 'bin'}`,
          contentType: decoded.contentType,
          size: decoded.bytes.byteLength,
          bytes: decoded.bytes,
        });
      }
      if (!byUrl.size) return 0;
      await this.store(ref, [...byUrl.values()]);
      // Read again: the page may have changed while the files were stored.
      const now = dataUrlImages(branch.doc, pageId);
      let moved = 0;
      branch.doc.transact(() => {
        for (const { element, attribute, url } of now) {
          const file = byUrl.get(url);
          if (!file) continue;
          element.setAttribute(attribute, uploadingRef(file.id));
          moved++;
        }
      });
      await branch.saved();
      return moved;
    });
  }

  /** Queues the uploads of files inserted while their space was on no server (it is being published). */
  async queueLocalFiles(tx: Queryable, spaceId: string): Promise<void> {
    for (const f of await localOnlyFiles(tx, spaceId)) {
      await tx.query("UPDATE files SET state = 'queued' WHERE id = $1", [f.id]);
      await enqueue(tx, 'file.upload', { spaceId, fileId: f.id }, `Upload “${f.name}”`);
    }
  }

  /** Stores files and queues their uploads in one transaction: a crash keeps both or neither. */
  private async store(ref: BranchRef, files: (Omit<FileInfo, 'size'> & { bytes: Uint8Array })[]) {
    const space = await this.ctx.catalog.spaceOrThrow(ref.spaceId);
    const cr = ref.changeRequestId ? await this.ctx.changeRequests.orThrow(ref.changeRequestId) : undefined;
    const queued = space.syncState !== 'local' && cr?.syncState !== 'local';
    await this.ctx.db.transaction(async (tx) => {
      for (const f of files) {
        const row: LocalFile = {
          id: f.id,
          spaceId: space.id,
          name: f.name,
          contentType: f.contentType,
          bytes: f.bytes,
          state: queued ? 'queued' : 'local',
          ...(f.dimensions ? { dimensions: f.dimensions } : {}),
        };
        await putLocalFile(tx, row);
        if (queued) {
          await enqueue(tx, 'file.upload', { spaceId: space.id, changeRequestId: cr?.id, fileId: f.id }, `Upload “${f.name}”`);
        }
      }
    });
    if (queued) this.ctx.queue.afterEnqueue();
  }

  private async fetchFromServer(ref: BranchRef, fileId: string): Promise<LocalFile | undefined> {
    const server = this.ctx.session.server;
    if (!server || this.ctx.session.reachable === false) return undefined;
    const space = await this.ctx.catalog.spaceOrThrow(ref.spaceId);
    if (!space.remoteId) return undefined;
    const cr = ref.changeRequestId ? await this.ctx.changeRequests.orThrow(ref.changeRequestId) : undefined;
    const base = cr?.remoteId ? `/v1/spaces/${space.remoteId}/change-requests/${cr.remoteId}` : `/v1/spaces/${space.remoteId}`;
    try {
      const file = await server.get<{ name: string; contentType: string; downloadURL: string }>(`${base}/content/files/${fileId}`);
      if (!file.downloadURL) return undefined;
      // The signed link holds for any address of the server: ask the one this machine reaches it at.
      const link = new URL(file.downloadURL);
      const res = await fetch(`${server.baseUrl}${link.pathname}${link.search}`, { signal: AbortSignal.timeout(30_000) });
      if (!res.ok) return undefined;
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { id: fileId, spaceId: space.id, name: file.name, contentType: file.contentType, bytes, state: 'fetched' };
    } catch {
      // Not on the server yet (its revision is cut a moment after edits go quiet), or unreachable: asked again next time.
      return undefined;
    }
  }
}

interface InlineImage {
  element: Y.XmlElement;
  attribute: string;
  url: string;
  alt: string | null;
}

/** The image blocks of a page whose address is a `data:` URL. */
function dataUrlImages(doc: Y.Doc, pageId: string): InlineImage[] {
  const page = findPageMap(doc, pageId);
  const body = page && bodyFragment(page, false);
  if (!body) return [];
  const found: InlineImage[] = [];
  const walk = (node: Y.XmlFragment | Y.XmlElement) => {
    for (const child of node.toArray()) {
      if (!(child instanceof Y.XmlElement)) continue;
      for (const attribute of IMAGE_SOURCES[child.nodeName] ?? []) {
        const url = child.getAttribute(attribute);
        if (typeof url === 'string' && /^data:/i.test(url)) {
          const alt = child.getAttribute('alt');
          found.push({ element: child, attribute, url, alt: typeof alt === 'string' ? alt : null });
        }
      }
      walk(child);
    }
  };
  walk(body);
  return found;
}

/** A `data:` URL's bytes and type, decoded by the platform's own URL fetcher; null when it cannot be read. */
async function decodeDataUrl(url: string): Promise<{ contentType: string; bytes: Uint8Array } | null> {
  try {
    const res = await fetch(url);
    const contentType = (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]?.trim().toLowerCase();
    const bytes = new Uint8Array(await res.arrayBuffer());
    return bytes.byteLength ? { contentType: contentType || 'application/octet-stream', bytes } : null;
  } catch {
    return null;
  }
}

import type { NodeJSON } from '@quire/shared/content/json';
import { fileByPath, isRelativePath } from '@quire/shared/content/filePaths';
import { htmlTargets } from '@quire/shared/content/htmlTargets';
import { getFile, getReusableContent, getReusableContentDocument, listFiles, listPages, markdownToBody } from '@quire/shared/content/index';
import type * as Y from 'yjs';
import type { Queryable } from '../../store/db';
import { getBlob, spaceFileHashes } from '../../store/files';
import { getSpecByRef, latestSpecDocument } from '../../store/openapiSpecs';
import { type LinkBase, signedFileUrl } from '../content/exports';
import { readPageBody } from '../content/model';
import { contentAtRevision, docAtRevision } from '../content/revisions';
import { flatPages } from '../content/tree';
import { type OpenAPIDocument, computedPageBody, renderOpenAPIOperations } from '../openapi/index';
import { type RemoteImageLimits, inBatches, printableImage, remoteImage } from './images';
import { type PdfImage, type PdfPage, type PdfResources, emptyResources, operationKey } from './model';

const DATA_URL = /^data:(image\/[a-z+.-]+);base64,(.*)$/is;

/** What to put in a PDF of a revision: all its pages, one page, or one page and those under it. */
export interface PdfScope {
  spaceId: string;
  orgId: string;
  revisionId: string;
  page?: string;
  only?: boolean;
  /** Where signed file links point (the server's public address), and whom they are handed to. */
  links: LinkBase;
  /** Images on other sites are fetched within these limits; without them they print as cards. */
  remoteImages?: RemoteImageLimits;
}

/** Undefined when `page` is not a page of the revision. */
export async function pdfPagesOf(db: Queryable, scope: PdfScope): Promise<{ pages: PdfPage[]; doc: Y.Doc } | undefined> {
  const content = await contentAtRevision(db, scope.revisionId);
  const doc = await docAtRevision(db, scope.revisionId);
  let nodes = flatPages(content);
  if (!scope.page) {
    // Hidden pages (and those under them) stay out of the space's PDF, as they stay out of
    // a site's navigation; asking for such a page by id still gives it.
    const hidden = nodes.filter((n) => n.hidden).map((n) => n.path);
    nodes = nodes.filter((n) => !hidden.some((h) => n.path === h || n.path.startsWith(`${h}/`)));
  }
  if (scope.page) {
    const all = flatPages(content);
    const start = all.findIndex((n) => n.id === scope.page);
    if (start < 0) return undefined;
    const root = all[start] as (typeof all)[number];
    nodes = scope.only ? [root] : [root, ...all.slice(start + 1).filter((n) => n.path.startsWith(`${root.path}/`))];
  }
  const baseDepth = scope.page ? (nodes[0]?.path.split('/').length ?? 1) - 1 : 0;
  const pages: PdfPage[] = [];
  for (const n of nodes) {
    // Groups and links have no body of their own; their pages follow them.
    if (n.type !== 'document' && !n.computed) continue;
    // Read in one go per page, before any await below touches the shared document.
    const stored = readPageBody(doc, n.id);
    const computed = n.computed ? await computedPageBody(db, scope.orgId, n.computed) : undefined;
    pages.push({
      id: n.id,
      title: n.title,
      depth: n.path.split('/').length - 1 - baseDepth,
      description: n.description ?? null,
      body: computed ?? stored,
    });
  }
  return { pages, doc };
}

function walk(node: NodeJSON, visit: (n: NodeJSON) => void): void {
  visit(node);
  for (const c of node.content ?? []) walk(c, visit);
}

/** The one operation of a spec as body blocks, the way `builtin:openapi` pages render all of them. */
async function operationBody(db: Queryable, orgId: string, attrs: Record<string, unknown>): Promise<NodeJSON | undefined> {
  const ref = typeof attrs.spec === 'string' ? attrs.spec : undefined;
  const path = String(attrs.path ?? '');
  const method = String(attrs.method ?? '').toLowerCase();
  let spec = ref ? await getSpecByRef(db, orgId, ref) : undefined;
  if (!spec && typeof attrs.src === 'string') {
    const rows = await db.query<{ slug: string }>('SELECT slug FROM openapi_specs WHERE org_id = $1 AND source_url = $2 LIMIT 1', [
      orgId,
      attrs.src,
    ]);
    if (rows[0]) spec = await getSpecByRef(db, orgId, rows[0].slug);
  }
  if (!spec) return undefined;
  const latest = await latestSpecDocument(db, spec.id);
  const document = latest?.document as OpenAPIDocument | undefined;
  const item = (document?.paths as Record<string, Record<string, unknown>> | undefined)?.[path];
  if (!document || !item || !item[method]) return undefined;
  const keep = Object.fromEntries(Object.entries(item).filter(([k]) => k === method || k === 'parameters' || k === 'servers'));
  const only = { ...document, paths: { [path]: keep } };
  return markdownToBody(renderOpenAPIOperations(only as OpenAPIDocument, { headingLevel: 3 })).doc;
}

/**
 * Everything the pages refer to, fetched before drawing: space files (image bytes and
 * signed download links), images given as `data:` URLs, reusable content and OpenAPI
 * operations. Images are made printable (images.ts); those on other sites are fetched
 * through the fetch guard when the scope gives limits for it.
 */
export async function pdfResources(db: Queryable, scope: PdfScope, doc: Y.Doc, pages: PdfPage[]): Promise<PdfResources> {
  const res = emptyResources();
  for (const page of listPages(doc)) if (page.title) res.pageTitles.set(page.id, page.title);
  const fileIds = new Set<string>();
  const imageSrcs = new Set<string>();
  const operations: Record<string, unknown>[] = [];
  const reusable = new Set<string>();
  const visit = (n: NodeJSON) => {
    const a = n.attrs ?? {};
    if ((n.type === 'image' || n.type === 'inlineImage') && typeof a.src === 'string') imageSrcs.add(a.src);
    if (n.type === 'file' && typeof a.fileId === 'string') fileIds.add(a.fileId);
    if (n.type === 'openapiOperation') operations.push(a);
    if (n.type === 'reusableContent' && typeof a.reusableContentId === 'string') reusable.add(a.reusableContentId);
    // Images inside HTML kept as written, when they name a space file or carry their bytes.
    if ((n.type === 'htmlBlock' || n.type === 'htmlInline') && typeof a.html === 'string') {
      for (const found of htmlTargets(a.html)) if (found.kind === 'image') imageSrcs.add(found.target);
    }
    for (const m of n.marks ?? []) {
      const href = m.attrs?.href;
      if (m.type === 'link' && typeof href === 'string' && href.startsWith('file:')) fileIds.add(href.slice(5));
    }
  };
  for (const p of pages) walk(p.body, visit);
  for (const id of reusable) {
    // An include of reusable content that was deleted since prints as its reference.
    if (!getReusableContent(doc, id)) continue;
    const body = getReusableContentDocument(doc, id);
    res.reusable.set(id, body);
    walk(body, visit);
  }
  // A repository path (`../.gitbook/assets/x.png`) names the space file imported from it, as on sites.
  const byPath = new Map<string, string>();
  const listed = listFiles(doc).map((f) => ({ id: f.id, name: f.name, gitPath: f.git?.path }));
  for (const src of imageSrcs) {
    const file = isRelativePath(src) ? fileByPath(listed, src) : undefined;
    if (file) byPath.set(src, file.id);
  }
  for (const src of imageSrcs) if (src.startsWith('file:')) fileIds.add(src.slice(5));
  for (const id of byPath.values()) fileIds.add(id);

  const infos = new Map([...fileIds].map((id) => [id, getFile(doc, id)] as const));
  const hashes = await spaceFileHashes(db, scope.spaceId, [...fileIds]);
  for (const [id, info] of infos) {
    if (!info || !hashes.has(id)) continue;
    res.files.set(id, { url: await signedFileUrl(db, scope.links, scope.spaceId, id, info.name), name: info.name });
  }
  const remote: string[] = [];
  for (const src of imageSrcs) {
    let image: PdfImage | undefined;
    const fileId = src.startsWith('file:') ? src.slice(5) : byPath.get(src);
    if (fileId) {
      const hash = hashes.get(fileId);
      const blob = hash ? await getBlob(db, hash) : undefined;
      if (blob) image = await printableImage(Buffer.from(blob.content), blob.content_type);
    } else if (/^https?:\/\//i.test(src)) {
      remote.push(src);
    } else {
      const m = DATA_URL.exec(src);
      if (m) image = await printableImage(Buffer.from(m[2] as string, 'base64'), m[1] as string);
    }
    if (image) res.images.set(src, image);
  }
  const limits = scope.remoteImages;
  if (limits) {
    await inBatches(remote.slice(0, limits.maxImages), 4, async (src) => {
      res.images.set(src, await remoteImage(src, limits));
    });
  }
  for (const a of operations) {
    const key = operationKey(a);
    if (res.operations.has(key)) continue;
    const body = await operationBody(db, scope.orgId, a);
    if (body) res.operations.set(key, body);
  }
  return res;
}

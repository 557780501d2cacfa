import type { OpenAPIHono } from '@hono/zod-openapi';
import { filePayload, pdfPayload, verify } from '../../core/content/exports';
import { Lru } from '../../core/content/lru';
import { readPageBody } from '../../core/content/model';
import { renderPdf } from '../../core/content/pdf';
import { contentAtRevision, docAtRevision } from '../../core/content/revisions';
import { flatPages } from '../../core/content/tree';
import { getChangeRequest } from '../../store/changeRequests';
import { getBlob, spaceFileHashes } from '../../store/files';
import { getRevisionHead } from '../../store/revisions';
import { ApiError, notFound } from '@quire/shared/apiErrors';
import type { AppEnv } from '../env';

const pdfs = new Lru<string, Buffer>(8);

/** Types a browser may show in place; anything else downloads, so no uploaded page runs on this origin. */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif)|application\/pdf|text\/plain|video\/|audio\/)/;

const forbiddenLink = () => new ApiError(403, 'This link is not valid: it was not issued by this server or was altered.');

/**
 * Downloads opened from links the API hands out (`downloadURL` of files, the change
 * request PDF). They live outside `/v1` because a browser follows them without a token;
 * the signature in the link is what authorizes them.
 */
export function registerContentDownloads(app: OpenAPIHono<AppEnv>) {
  app.get('/files/:spaceId/:fileId/:name', async (c) => {
    const { db } = c.get('deps');
    const { spaceId, fileId } = c.req.param();
    if (!(await verify(db, filePayload(spaceId, fileId), c.req.query('sig')))) throw forbiddenLink();
    const hash = (await spaceFileHashes(db, spaceId, [fileId])).get(fileId);
    const blob = hash ? await getBlob(db, hash) : undefined;
    if (!blob) throw notFound('file');
    const inline = INLINE_TYPES.test(blob.content_type);
    return c.body(new Uint8Array(blob.content), 200, {
      'content-type': blob.content_type,
      'content-length': String(blob.size),
      'content-disposition': inline ? 'inline' : 'attachment',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, max-age=3600',
      etag: `"${blob.hash}"`,
    });
  });

  app.get('/exports/spaces/:spaceId/change-requests/:changeRequestId/revisions/:file', async (c) => {
    const { db } = c.get('deps');
    const { spaceId, changeRequestId, file } = c.req.param();
    const revisionId = file.replace(/\.pdf$/, '');
    const page = c.req.query('page') || undefined;
    const only = c.req.query('only') === 'true';
    const target = { spaceId, changeRequestId, revisionId, page, only };
    if (!(await verify(db, pdfPayload(target), c.req.query('sig')))) throw forbiddenLink();
    const key = pdfPayload(target);
    let pdf = pdfs.get(key);
    if (!pdf) {
      const [cr, head] = await Promise.all([getChangeRequest(db, changeRequestId), getRevisionHead(db, revisionId)]);
      if (!cr || !head || head.space_id !== spaceId) throw notFound('change request');
      const content = await contentAtRevision(db, revisionId);
      const doc = await docAtRevision(db, revisionId);
      let nodes = flatPages(content);
      if (page) {
        const start = nodes.findIndex((n) => n.id === page);
        if (start < 0) throw notFound('page');
        const root = nodes[start] as (typeof nodes)[number];
        const depth = root.path.split('/').length;
        // The page alone, or the page and the pages under it.
        nodes = only
          ? [root]
          : [root, ...nodes.slice(start + 1).filter((n) => n.path.startsWith(`${root.path}/`) && n.path.split('/').length > depth)];
      }
      const pages = nodes
        .filter((n) => n.type === 'document')
        .map((n) => ({ title: n.title, depth: n.path.split('/').length - 1, body: readPageBody(doc, n.id) }));
      pdf = await renderPdf(cr.subject || `Change request #${cr.number}`, pages);
      pdfs.set(key, pdf);
    }
    return c.body(new Uint8Array(pdf), 200, {
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="change-request-${changeRequestId}.pdf"`,
      'cache-control': 'private, max-age=3600',
    });
  });
}

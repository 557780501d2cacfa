import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { filePayload, type PdfTarget, pdfPayload, withLinkHolder } from '../../core/content/exports';
import { checkLink } from '../../core/content/linkHolders';
import { Lru } from '../../core/content/lru';
import { renderPdf } from '../../core/pdf/index';
import { REMOTE_IMAGE_LIMITS } from '../../core/pdf/images';
import { pdfPagesOf, pdfResources } from '../../core/pdf/sources';
import { getChangeRequest } from '../../store/changeRequests';
import { getBlob, spaceFileHashes } from '../../store/files';
import { getOrg } from '../../store/organizations';
import { getRevisionHead } from '../../store/revisions';
import { getSpace } from '../../store/spaces';
import { notFound } from '@quire/shared/apiErrors';
import type { AppEnv } from '../env';
import { baseUrl } from '../urls';

const pdfs = new Lru<string, Buffer>(8);
const building = new Map<string, Promise<Buffer>>();

/** Types a browser may show in place; anything else downloads, so no uploaded page runs on this origin. */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif)|application\/pdf|text\/plain|video\/|audio\/)/;

/** Builds (or takes from the cache) the PDF a verified link names; the revision is immutable, so the bytes are too. */
async function servePdf(c: Context<AppEnv>, target: PdfTarget, filename: string) {
  const { db } = c.get('deps');
  const holder = await checkLink(db, pdfPayload(target), target.spaceId, c.req.query());
  const key = pdfPayload(target);
  let pdf = pdfs.get(key);
  if (!pdf) {
    // Readers opening the same link at once share one build.
    let build = building.get(key);
    if (!build) {
      // Links inside the PDF are handed to whoever the PDF's own link was handed to.
      build = withLinkHolder(holder, () => buildPdf(c, target)).finally(() => building.delete(key));
      building.set(key, build);
    }
    pdf = await build;
    pdfs.set(key, pdf);
  }
  return c.body(new Uint8Array(pdf), 200, {
    'content-type': 'application/pdf',
    'content-disposition': `inline; filename="${filename}.pdf"`,
    'cache-control': 'private, max-age=3600',
  });
}

/** The PDF of a revision (or a page of it), drawn from what the revision and its space hold. */
async function buildPdf(c: Context<AppEnv>, target: PdfTarget): Promise<Buffer> {
  const { db, config } = c.get('deps');
  const [space, head, cr] = await Promise.all([
    getSpace(db, target.spaceId),
    getRevisionHead(db, target.revisionId),
    target.changeRequestId ? getChangeRequest(db, target.changeRequestId) : undefined,
  ]);
  if (!space || !head || head.space_id !== target.spaceId || (target.changeRequestId && !cr)) {
    throw notFound(target.changeRequestId ? 'change request' : 'space');
  }
  const remoteImages = { ...REMOTE_IMAGE_LIMITS, allowPrivate: config.allowPrivateFetch };
  const scope = { ...target, orgId: space.org_id, baseUrl: baseUrl(c), remoteImages };
  const found = await pdfPagesOf(db, scope);
  if (!found) throw notFound('page');
  const resources = await pdfResources(db, scope, found.doc, found.pages);
  const org = await getOrg(db, space.org_id);
  const title = cr ? cr.subject || `Change request #${cr.number}` : space.title || 'Untitled space';
  const subtitle = cr ? `Change request #${cr.number} in ${space.title}` : (org?.title ?? undefined);
  return renderPdf({ title, subtitle, pages: found.pages, resources });
}

function pdfQuery(c: Context<AppEnv>) {
  return { page: c.req.query('page') || undefined, only: c.req.query('only') === 'true' };
}

/**
 * Downloads opened from links the API hands out (`downloadURL` of files, the space and
 * change request PDFs). They live outside `/v1` because a browser follows them without a
 * token; the signature in the link is what authorizes them.
 */
export function registerContentDownloads(app: OpenAPIHono<AppEnv>) {
  app.get('/files/:spaceId/:fileId/:name', async (c) => {
    const { db } = c.get('deps');
    const { spaceId, fileId } = c.req.param();
    await checkLink(db, filePayload(spaceId, fileId), spaceId, c.req.query());
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
    const { spaceId, changeRequestId, file } = c.req.param();
    const target = { spaceId, changeRequestId, revisionId: file.replace(/\.pdf$/, ''), ...pdfQuery(c) };
    return servePdf(c, target, `change-request-${changeRequestId}`);
  });

  app.get('/exports/spaces/:spaceId/revisions/:file', async (c) => {
    const { spaceId, file } = c.req.param();
    const target = { spaceId, revisionId: file.replace(/\.pdf$/, ''), ...pdfQuery(c) };
    return servePdf(c, target, `space-${spaceId}`);
  });
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { PdfTarget } from '../../core/content/exports';
import { linkedFile, linkedPdf } from '../../core/content/downloads';
import type { AppEnv } from '../env';
import { clientAddress } from '../middleware/rateLimit';
import { publicContext } from '../../web/commandContext';

/** Types a browser may show in place; anything else downloads, so no uploaded page runs on this origin. */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif)|application\/pdf|text\/plain|video\/|audio\/)/;

async function servePdf(c: Context<AppEnv>, target: PdfTarget, filename: string) {
  const ctx = publicContext(c);
  // A HEAD request asks about the PDF; a GET opens it.
  const opened =
    c.req.method === 'GET'
      ? {
          url: `${ctx.baseUrl}${c.req.path}`,
          sender: { address: clientAddress(c), userAgent: c.req.header('user-agent') ?? '' },
          signals: { gpc: c.req.header('sec-gpc'), dnt: c.req.header('dnt') },
        }
      : undefined;
  const pdf = await linkedPdf(ctx, { target, query: c.req.query(), opened });
  return c.body(new Uint8Array(pdf), 200, {
    'content-type': 'application/pdf',
    'content-disposition': `inline; filename="${filename}.pdf"`,
    'cache-control': 'private, max-age=3600',
  });
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
    const { spaceId, fileId } = c.req.param();
    const blob = await linkedFile(publicContext(c), { spaceId, fileId, query: c.req.query() });
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

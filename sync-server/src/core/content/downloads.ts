import { notFound } from '@quire/shared/domainErrors';
import { LRUCache } from 'lru-cache';
import type { Deps, PublicContext } from '../platform/deps';
import { recordPdfDownload, type SiteVisit } from '../insights/commands';
import type { Sender } from '../insights/events';
import { renderPdf } from '../pdf/index';
import { REMOTE_IMAGE_LIMITS } from '../pdf/images';
import { pdfPagesOf, pdfResources } from '../pdf/sources';
import { type LinkBase, type LinkHolder, filePayload, type PdfTarget, pdfPayload } from './exports';
import { checkLink } from './linkHolders';
import { getChangeRequest } from '../../store/changeRequests';
import { type BlobRow, getBlob, spaceFileHashes } from '../../store/files';
import { getOrg } from '../../store/organizations';
import { getRevisionHead } from '../../store/revisions';
import { getSpace } from '../../store/spaces';

/**
 * What the signed links the API hands out open: a file of a space, or the PDF of a revision.
 * The signature in the link (its query) is what authorizes them.
 */

const pdfs = new LRUCache<string, Buffer>({ max: 8 });
const building = new Map<string, Promise<Buffer>>();

/** The bytes of a space's file a verified link names (`query`: the link's, with its signature). */
export async function linkedFile(
  ctx: PublicContext,
  input: { spaceId: string; fileId: string; query: Record<string, string> },
): Promise<BlobRow> {
  const { db } = ctx.deps;
  const { spaceId, fileId } = input;
  await checkLink(db, filePayload(spaceId, fileId), spaceId, input.query);
  const hash = (await spaceFileHashes(db, spaceId, [fileId])).get(fileId);
  const blob = hash ? await getBlob(db, hash) : undefined;
  if (!blob) throw notFound('file');
  return blob;
}

/** A PDF link opened by a reader (not merely asked about): recorded in the site's insights when a site handed it out. */
export interface PdfOpening {
  url: string;
  sender: Sender;
  signals: SiteVisit['signals'];
}

/**
 * The PDF a verified link names (`query`: the link's, with its signature). When `opened`
 * says a reader opened it, the download is recorded for the site the link was handed to
 * (`recordPdfDownload`).
 */
export async function linkedPdf(
  ctx: PublicContext,
  input: { target: PdfTarget; query: Record<string, string>; opened?: PdfOpening },
): Promise<Buffer> {
  const { target } = input;
  const { pdf, holder } = await pdfOf(ctx.deps, ctx.baseUrl, target, input.query);
  if (input.opened) {
    recordPdfDownload(ctx, { ...input.opened, holder, spaceId: target.spaceId, revisionId: target.revisionId });
  }
  return pdf;
}

/**
 * Builds (or takes from the cache) the PDF a verified link names, with whom the link was
 * handed to; the revision is immutable, so the bytes are too.
 */
async function pdfOf(
  deps: Pick<Deps, 'db' | 'config'>,
  base: string,
  target: PdfTarget,
  query: Record<string, string>,
): Promise<{ pdf: Buffer; holder: LinkHolder }> {
  const holder = await checkLink(deps.db, pdfPayload(target), target.spaceId, query);
  const key = pdfPayload(target);
  let pdf = pdfs.get(key);
  if (!pdf) {
    // Readers opening the same link at once share one build.
    let build = building.get(key);
    if (!build) {
      // Links inside the PDF are handed to whoever the PDF's own link was handed to.
      build = buildPdf(deps, { base, holder }, target).finally(() => building.delete(key));
      building.set(key, build);
    }
    pdf = await build;
    pdfs.set(key, pdf);
  }
  return { pdf, holder };
}

/** The PDF of a revision (or a page of it), drawn from what the revision and its space hold. */
async function buildPdf({ db, config }: Pick<Deps, 'db' | 'config'>, links: LinkBase, target: PdfTarget): Promise<Buffer> {
  const [space, head, cr] = await Promise.all([
    getSpace(db, target.spaceId),
    getRevisionHead(db, target.revisionId),
    target.changeRequestId ? getChangeRequest(db, target.changeRequestId) : undefined,
  ]);
  if (!space || !head || head.space_id !== target.spaceId || (target.changeRequestId && !cr)) {
    throw notFound(target.changeRequestId ? 'change request' : 'space');
  }
  const remoteImages = { ...REMOTE_IMAGE_LIMITS, allowPrivate: config.allowPrivateFetch };
  const scope = { ...target, orgId: space.org_id, links, remoteImages };
  const found = await pdfPagesOf(db, scope);
  if (!found) throw notFound('page');
  const resources = await pdfResources(db, scope, found.doc, found.pages);
  const org = await getOrg(db, space.org_id);
  const title = cr ? cr.subject || `Change request #${cr.number}` : space.title || 'Untitled space';
  const subtitle = cr ? `Change request #${cr.number} in ${space.title}` : (org?.title ?? undefined);
  return renderPdf({ title, subtitle, pages: found.pages, resources });
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../store/db';
import { serverSecret } from '../secrets';

/**
 * Links the server hands out for downloads that a browser opens without a token (file
 * downloads, generated PDFs). Each carries an HMAC of what it names, so it cannot be
 * forged or pointed elsewhere; what it names is immutable (a file's bytes, a revision),
 * so the link is stable and two reads of the same resource give the same URL.
 */
async function sign(db: Queryable, payload: string): Promise<string> {
  const key = await serverSecret(db, 'content-links');
  return createHmac('sha256', key).update(payload).digest('base64url').slice(0, 32);
}

export async function verify(db: Queryable, payload: string, sig: string | undefined): Promise<boolean> {
  if (!sig) return false;
  const expected = Buffer.from(await sign(db, payload));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A PDF of a revision: of a change request's branch, or of the space's main content when `changeRequestId` is absent. */
export interface PdfTarget {
  spaceId: string;
  changeRequestId?: string;
  revisionId: string;
  page?: string;
  only?: boolean;
}

export function pdfPayload(t: PdfTarget): string {
  return `pdf:${t.spaceId}:${t.changeRequestId ?? ''}:${t.revisionId}:${t.page ?? ''}:${t.only ? 1 : 0}`;
}

export async function signedPdfUrl(db: Queryable, base: string, t: PdfTarget): Promise<string> {
  const q = new URLSearchParams();
  if (t.page) q.set('page', t.page);
  if (t.only) q.set('only', 'true');
  q.set('sig', await sign(db, pdfPayload(t)));
  const branch = t.changeRequestId ? `/change-requests/${t.changeRequestId}` : '';
  return `${base}/exports/spaces/${t.spaceId}${branch}/revisions/${t.revisionId}.pdf?${q}`;
}

export function filePayload(spaceId: string, fileId: string): string {
  return `file:${spaceId}:${fileId}`;
}

export async function signedFileUrl(db: Queryable, base: string, spaceId: string, fileId: string, name: string): Promise<string> {
  const sig = await sign(db, filePayload(spaceId, fileId));
  return `${base}/files/${spaceId}/${fileId}/${encodeURIComponent(name)}?sig=${sig}`;
}

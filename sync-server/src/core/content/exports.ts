import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../store/db';
import { serverSecret } from '../security/secrets';

/**
 * Links the server hands out for downloads that a browser opens without a token (file
 * downloads, generated PDFs). Each carries an HMAC of what it names, whom it was handed
 * to and when it expires, so it cannot be forged, pointed elsewhere or kept forever; the
 * download checks that its holder still has access (the API token still opens the space,
 * the site still publishes it). Expiry is rounded up to a whole window, so two reads in
 * the same window give the same URL.
 */
const WINDOW_S = 60 * 60;

/** Who a link was handed to: an API token (`t.<tokenId>`) or a published site's visitors (`s.<siteId>`). */
export type LinkHolder = `t.${string}` | `s.${string}`;

/**
 * Where links point (the server's public address) and whom they are handed to. Passed
 * along rather than kept in an async context: that context costs every promise of the
 * process a hook, sync traffic included.
 */
export interface LinkBase {
  base: string;
  holder: LinkHolder;
}

/** The current link window: site pages that embed links are cached per window. */
export function linkWindow(now = Date.now()): number {
  return Math.floor(now / 1000 / WINDOW_S);
}

/** Valid for one to two windows from now. */
function expiry(): number {
  return (linkWindow() + 2) * WINDOW_S;
}

async function sign(db: Queryable, payload: string): Promise<string> {
  const key = await serverSecret(db, 'content-links');
  return createHmac('sha256', key).update(payload).digest('base64url').slice(0, 32);
}

/** `sig`, `exp` and `by` of a link to `payload`. */
async function signedQuery(db: Queryable, payload: string, holder: LinkHolder, q = new URLSearchParams()): Promise<URLSearchParams> {
  const exp = String(expiry());
  q.set('exp', exp);
  q.set('by', holder);
  q.set('sig', await sign(db, `${payload}:${exp}:${holder}`));
  return q;
}

export type LinkCheck = { ok: true; holder: LinkHolder } | { ok: false; reason: 'invalid' | 'expired' };

/** Checks a link's signature and expiry; whether its holder still has access is the caller's to check. */
export async function verify(db: Queryable, payload: string, q: { sig?: string; exp?: string; by?: string }): Promise<LinkCheck> {
  const { sig, exp, by } = q;
  if (!sig || !exp || !/^\d{1,12}$/.test(exp) || !by || !/^[ts]\.[A-Za-z0-9_-]{1,64}$/.test(by)) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(await sign(db, `${payload}:${exp}:${by}`));
  const given = Buffer.from(sig);
  if (!(expected.length === given.length && timingSafeEqual(expected, given))) return { ok: false, reason: 'invalid' };
  if (Number(exp) * 1000 <= Date.now()) return { ok: false, reason: 'expired' };
  return { ok: true, holder: by as LinkHolder };
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

export async function signedPdfUrl(db: Queryable, { base, holder }: LinkBase, t: PdfTarget): Promise<string> {
  const q = new URLSearchParams();
  if (t.page) q.set('page', t.page);
  if (t.only) q.set('only', 'true');
  await signedQuery(db, pdfPayload(t), holder, q);
  const branch = t.changeRequestId ? `/change-requests/${t.changeRequestId}` : '';
  return `${base}/exports/spaces/${t.spaceId}${branch}/revisions/${t.revisionId}.pdf?${q}`;
}

export function filePayload(spaceId: string, fileId: string): string {
  return `file:${spaceId}:${fileId}`;
}

export async function signedFileUrl(
  db: Queryable,
  { base, holder }: LinkBase,
  spaceId: string,
  fileId: string,
  name: string,
): Promise<string> {
  const q = await signedQuery(db, filePayload(spaceId, fileId), holder);
  return `${base}/files/${spaceId}/${fileId}/${encodeURIComponent(name)}?${q}`;
}

import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { visitorClaims } from '../core/sites/adaptiveSchema';
import { verifyVisitorToken } from '../core/sites/visitorAuth';
import type { SiteRow } from '../store/sites';

/**
 * Who may read a published site. `share-link` sites open with `?shareKey=` and then a
 * cookie; `visitor-auth` sites with a visitor JWT (`?jwt_token=`, then a cookie) signed
 * with the site's key. A key or token in the URL is moved into a cookie at once and the
 * visitor sent to the same URL without it, so it does not stay in history or referrers.
 */
export type GateResult =
  | { kind: 'open'; claims: Record<string, unknown> }
  | { kind: 'redirect'; location: string; cookie: string }
  | { kind: 'refused'; status: 401 | 404 };

const shareCookie = (site: SiteRow) => `quire_share_${site.id}`;
const visitorCookie = (site: SiteRow) => `quire_visitor_${site.id}`;

/** Compares a secret given by a visitor with the site's in constant time. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieHeader(name: string, value: string, path: string, secure: boolean, maxAge: number): string {
  return `${name}=${encodeURIComponent(value)}; Path=${path || '/'}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The URL without one query parameter. */
function without(url: URL, param: string): string {
  const next = new URL(url);
  next.searchParams.delete(param);
  return `${next.pathname}${next.search}`;
}

export async function gate(c: Context, site: SiteRow, root: string): Promise<GateResult> {
  const url = new URL(c.req.url);
  const secure = url.protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';
  const claimsOf = async (token: string | undefined) => {
    if (!token) return undefined;
    const verified = await verifyVisitorToken(token, site);
    return verified.ok ? verifyClaims(verified.claims) : undefined;
  };
  const verifyClaims = (payload: Record<string, unknown>) => ({ payload, claims: visitorClaims(payload, site.adaptive_schema) });

  if (site.visibility === 'share-link') {
    const given = url.searchParams.get('shareKey');
    if (given !== null) {
      if (!sameSecret(given, site.share_key)) return { kind: 'refused', status: 404 };
      return {
        kind: 'redirect',
        location: without(url, 'shareKey'),
        cookie: cookieHeader(shareCookie(site), given, root, secure, 60 * 60 * 24 * 30),
      };
    }
    const held = getCookie(c, shareCookie(site));
    if (!held || !sameSecret(held, site.share_key)) return { kind: 'refused', status: 404 };
  }

  const fromUrl = url.searchParams.get('jwt_token');
  if (fromUrl !== null && (site.visibility === 'visitor-auth' || site.adaptive_content)) {
    const verified = await verifyVisitorToken(fromUrl, site);
    if (!verified.ok) return { kind: 'refused', status: site.visibility === 'visitor-auth' ? 401 : 404 };
    const exp = Number(verified.claims.exp);
    const maxAge = Math.max(1, Math.min(exp - Math.floor(Date.now() / 1000), 60 * 60 * 24 * 30));
    return {
      kind: 'redirect',
      location: without(url, 'jwt_token'),
      cookie: cookieHeader(visitorCookie(site), fromUrl, root, secure, maxAge),
    };
  }

  const visitor =
    site.visibility === 'visitor-auth' || site.adaptive_content ? await claimsOf(getCookie(c, visitorCookie(site))) : undefined;
  if (site.visibility === 'visitor-auth' && !visitor) return { kind: 'refused', status: 401 };
  return { kind: 'open', claims: visitor?.claims ?? {} };
}

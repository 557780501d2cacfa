import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { sameSecret } from '../core/security/secrets';
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

export { sameSecret };

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
    // Before a visitor token is looked at: without the key nothing of the site answers.
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

  return visitorAccess(site, { shareKey: getCookie(c, shareCookie(site)), token: getCookie(c, visitorCookie(site)) });
}

/**
 * The gate for machines (the site's MCP endpoint), which hold no cookies: the share key
 * in `?shareKey=` and the visitor token as `Authorization: Bearer`, checked on every
 * request by the same rule as the cookies browsers carry.
 */
export async function machineGate(c: Context, site: SiteRow): Promise<Exclude<GateResult, { kind: 'redirect' }>> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
  return visitorAccess(site, { shareKey: c.req.query('shareKey'), token: bearer });
}

/**
 * Who may read, given the share key and visitor token a visitor holds: the one decision
 * browsers (through cookies) and machines (through headers) share. A share-link site
 * needs its key; a visitor-auth site a valid token; adaptive content takes the token's
 * claims when it is valid and none otherwise.
 */
export async function visitorAccess(
  site: SiteRow,
  held: { shareKey?: string; token?: string },
): Promise<Exclude<GateResult, { kind: 'redirect' }>> {
  if (site.visibility === 'share-link' && !(held.shareKey && sameSecret(held.shareKey, site.share_key))) {
    return { kind: 'refused', status: 404 };
  }
  let claims: Record<string, unknown> | undefined;
  if ((site.visibility === 'visitor-auth' || site.adaptive_content) && held.token) {
    const verified = await verifyVisitorToken(held.token, site);
    if (verified.ok) claims = visitorClaims(verified.claims, site.adaptive_schema);
  }
  if (site.visibility === 'visitor-auth' && !claims) return { kind: 'refused', status: 401 };
  return { kind: 'open', claims: claims ?? {} };
}

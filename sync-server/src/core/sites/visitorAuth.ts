import { errors, jwtVerify } from 'jose';

/**
 * Visitor tokens of a site: JWTs signed with the site's own key (HS256 only), with an
 * expiry and the site id as audience. A token for another site, signed with another
 * algorithm, expired or without `exp` is refused.
 */

export type VisitorTokenResult = { ok: true; claims: Record<string, unknown> } | { ok: false; reason: string };

const MAX_TOKEN_LENGTH = 8192;

export async function verifyVisitorToken(token: string, site: { id: string; visitor_key: string }): Promise<VisitorTokenResult> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'missing or oversized token' };
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(site.visitor_key), {
      algorithms: ['HS256'],
      audience: site.id,
      requiredClaims: ['exp'],
      clockTolerance: 5,
    });
    return { ok: true, claims: payload as Record<string, unknown> };
  } catch (err) {
    if (err instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
    if (err instanceof errors.JOSEAlgNotAllowed) return { ok: false, reason: 'algorithm not allowed' };
    if (err instanceof errors.JWTClaimValidationFailed) return { ok: false, reason: `claim ${err.claim} refused` };
    return { ok: false, reason: 'invalid token' };
  }
}

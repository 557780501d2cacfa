import { newId } from '@quire/shared';
import { SignJWT, jwtVerify } from 'jose';
import { serverSecret } from '../security/secrets';
import type { Queryable } from '../../store/db';

const AUDIENCE = 'quire-sync';
const SECRET_NAME = 'sync-tickets';

/** Who a ticket speaks for: the user, the API token that asked for it, and the one room it opens. */
export interface TicketClaims {
  userId: string;
  tokenId: string;
  room: string;
}

/** A verified ticket: its claims, and what makes it single use (its id and when it expires). */
export interface VerifiedTicket extends TicketClaims {
  id: string;
  expiresAt: Date;
}

/**
 * Signs a short-lived ticket for one room. Browsers cannot set headers on a WebSocket
 * upgrade, and an API token in a URL ends up in logs; a ticket that opens one connection to
 * one room within a minute is a much smaller secret to leak. Its id (`jti`) is what the
 * connection it opens spends (`spendSyncTicket`).
 */
export async function issueTicket(db: Queryable, claims: TicketClaims, ttlSeconds: number): Promise<{ ticket: string; expiresAt: Date }> {
  const key = await serverSecret(db, SECRET_NAME);
  const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
  const ticket = await new SignJWT({ room: claims.room, tid: claims.tokenId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setAudience(AUDIENCE)
    .setJti(newId())
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(key);
  return { ticket, expiresAt: new Date(exp * 1000) };
}

/** A valid, unexpired ticket (whether used or not); undefined for anything else. */
export async function verifyTicket(db: Queryable, ticket: string): Promise<VerifiedTicket | undefined> {
  try {
    const key = await serverSecret(db, SECRET_NAME);
    const { payload } = await jwtVerify(ticket, key, { audience: AUDIENCE, algorithms: ['HS256'] });
    const { sub, room, tid, jti, exp } = payload as { sub?: unknown; room?: unknown; tid?: unknown; jti?: unknown; exp?: unknown };
    if (typeof sub !== 'string' || typeof room !== 'string' || typeof tid !== 'string') return undefined;
    // jwtVerify checked that `exp` is a number in the future.
    if (typeof jti !== 'string' || typeof exp !== 'number') return undefined;
    return { userId: sub, tokenId: tid, room, id: jti, expiresAt: new Date(exp * 1000) };
  } catch {
    return undefined;
  }
}

/** Whether a credential has the shape of a JWT (three base64url parts). */
export function looksLikeTicket(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

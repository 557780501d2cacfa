import { conflict, unprocessable } from '@quire/shared/domainErrors';
import type { Db } from '../../store/db';
import { claimKey, releaseKey, storeAnswer } from '../../store/idempotency';

/*
 * Idempotency keys: the same key with the same request answers the first answer again
 * without doing the work twice; the same key with another request is refused. Keys are per
 * user. A request is named by a hash of what identifies it (method, path, body).
 */

/** A first request that never finished (its process died) stops blocking retries after this long. */
const ABANDONED_MS = 5 * 60 * 1000;

/** The answer kept for a key, to be given again as it was. */
export interface KeptAnswer {
  status: number;
  contentType: string | null;
  body: string | null;
}

/**
 * Claims `key` for a request. Undefined: the request is to be handled now (the key was new,
 * or its first request was abandoned). Otherwise the answer kept for it. 422 when the key
 * was used with another request, 409 while its first request is still being handled.
 */
export async function claimRequest(db: Db, userId: string, key: string, requestHash: string): Promise<KeptAnswer | undefined> {
  const existing = await claimKey(db, userId, key, requestHash);
  if (!existing) return undefined;
  if (existing.request_hash !== requestHash) {
    throw unprocessable('This Idempotency-Key was already used with a different request.');
  }
  if (existing.status === null) {
    if (Date.now() - new Date(existing.created_at).getTime() < ABANDONED_MS) {
      throw conflict('A request with this Idempotency-Key is still being handled; retry shortly.');
    }
    await releaseKey(db, userId, key);
    await claimKey(db, userId, key, requestHash);
    return undefined;
  }
  return { status: existing.status, contentType: existing.content_type, body: existing.body };
}

/** Whether an answer with this status is kept: a 5xx is not, so the client may retry it. */
export function isKept(status: number): boolean {
  return status < 500;
}

/** Keeps the answer of a claimed request, to be given again for the same key. */
export async function keepAnswer(db: Db, userId: string, key: string, answer: KeptAnswer & { body: string }): Promise<void> {
  await storeAnswer(db, userId, key, answer.status, answer.contentType, answer.body);
}

/** Lets a claimed key go without an answer: the next request with it is handled anew. */
export async function releaseRequest(db: Db, userId: string, key: string): Promise<void> {
  await releaseKey(db, userId, key);
}

import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { claimKey, releaseKey, storeAnswer } from '../../store/idempotency';
import { ApiError, badRequest, conflict, unprocessable } from '@quire/shared/apiErrors';
import type { AppEnv } from '../env';

const KEY = /^[\x21-\x7e]{1,255}$/;
/** A first request that never finished (its process died) stops blocking retries after this long. */
const ABANDONED_MS = 5 * 60 * 1000;

/**
 * `Idempotency-Key` on POST, PUT and PATCH: the same key with the same request answers
 * the first answer again without doing the work twice; the same key with another request
 * is 422. Keys are per user. A 5xx is not kept, so the client may retry it.
 */
export function idempotency(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined || !['POST', 'PUT', 'PATCH'].includes(c.req.method)) return next();
    if (!KEY.test(key)) throw badRequest('Invalid header "Idempotency-Key": 1 to 255 visible ASCII characters.');
    const { db } = c.get('deps');
    const userId = c.get('caller').user.id;
    const text = await c.req.text().catch(() => '');
    const hash = createHash('sha256').update(`${c.req.method} ${c.req.path}\n${text}`).digest('hex');

    const existing = await claimKey(db, userId, key, hash);
    if (existing) {
      if (existing.request_hash !== hash) {
        throw unprocessable('This Idempotency-Key was already used with a different request.');
      }
      if (existing.status === null) {
        if (Date.now() - new Date(existing.created_at).getTime() < ABANDONED_MS) {
          throw conflict('A request with this Idempotency-Key is still being handled; retry shortly.');
        }
        await releaseKey(db, userId, key);
        await claimKey(db, userId, key, hash);
      } else {
        const headers = new Headers({ 'Idempotent-Replayed': 'true' });
        if (existing.content_type) headers.set('content-type', existing.content_type);
        c.res = new Response(existing.status === 204 ? null : (existing.body ?? ''), { status: existing.status, headers });
        return;
      }
    }

    try {
      await next();
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) {
        // Hono's error handler builds the answer after we return; store that same answer.
        const body = JSON.stringify({ error: { code: err.status, message: err.message } });
        await storeAnswer(db, userId, key, err.status, 'application/json', body);
      } else {
        await releaseKey(db, userId, key);
      }
      throw err;
    }
    const res = c.res;
    if (res.status >= 500) {
      await releaseKey(db, userId, key);
      return;
    }
    const body = await res.clone().text();
    await storeAnswer(db, userId, key, res.status, res.headers.get('content-type'), body);
  };
}

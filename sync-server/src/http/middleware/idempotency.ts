import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { claimRequest, isKept, keepAnswer, releaseRequest } from '../../core/platform/idempotency';
import { badRequest } from '@quire/shared/domainErrors';
import { httpAnswerOf } from '../errorStatus';
import type { AppEnv } from '../env';

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on POST, PUT and PATCH: the same key with the same request answers
 * the first answer again without doing the work twice; the same key with another request
 * is 422. Keys are per user. A 5xx is not kept, so the client may retry it (core/idempotency).
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

    const kept = await claimRequest(db, userId, key, hash);
    if (kept) {
      const headers = new Headers({ 'Idempotent-Replayed': 'true' });
      if (kept.contentType) headers.set('content-type', kept.contentType);
      c.res = new Response(kept.status === 204 ? null : (kept.body ?? ''), { status: kept.status, headers });
      return;
    }

    try {
      await next();
    } catch (err) {
      const answer = httpAnswerOf(err);
      if (answer && isKept(answer.status)) {
        // Hono's error handler builds the answer after we return; keep that same answer.
        const body = JSON.stringify({ error: { code: answer.status, message: answer.message } });
        await keepAnswer(db, userId, key, { status: answer.status, contentType: 'application/json', body });
      } else {
        await releaseRequest(db, userId, key);
      }
      throw err;
    }
    const res = c.res;
    if (!isKept(res.status)) {
      await releaseRequest(db, userId, key);
      return;
    }
    const body = await res.clone().text();
    await keepAnswer(db, userId, key, { status: res.status, contentType: res.headers.get('content-type'), body });
  };
}

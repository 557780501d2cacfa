import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { tokenHashOf } from '../core/access/callers';
import { readModelOf, tags, type Tag } from '../core/readModel/readModel';
import { tooManyRequests } from '@quire/shared/domainErrors';
import { type HttpAnswer, httpAnswerOf } from './errorStatus';
import type { AppEnv, Deps } from './env';
import type { RateLimiters } from './middleware/rateLimit';

/*
 * Cached response bytes for hot GETs. A handler whose answer depends only on rows the
 * read model tracks says so with `cacheable(c, tags)`; its 200 is kept as bytes, keyed by
 * the caller's token, the public base URL, the path and the query. The next identical
 * request is answered from those bytes before Hono routes it: the rate limits still
 * count it and send their headers, and the log line is written as for any request.
 * Nothing that depends on the clock may be made cacheable.
 */

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const RATE_HEADERS = new Set(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

function responseKey(tokenHash: string, base: string, url: string): string {
  return `${tokenHash}\n${base}\n${url}`;
}

/** Marks the answer of this request as cacheable, computed from the rows behind `answerTags`. */
export function cacheable(c: Context<AppEnv>, answerTags: Tag[]) {
  c.set('cacheTags', answerTags);
}

/** Notes the read model's generation before anything is read, and keeps cacheable answers. */
export function keepResponses(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const model = readModelOf(c.get('deps').db);
    // Read your writes across instances: notifications of writes acknowledged before this
    // request arrived are heard before anything is read (a no-op on PGlite).
    const fenced = await model.fence();
    const since = model.begin();
    // Kept MCP answers are looked up inside the app, so only once the fence held.
    if (fenced) c.set('readSince', since);
    await next();
    const answerTags = c.get('cacheTags');
    const caller = c.get('caller');
    const tokenHash = c.get('tokenHash');
    if (!answerTags || !caller || !tokenHash || c.req.method !== 'GET' || c.res.status !== 200) return;
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (!incoming?.url || !model.active) return;
    const body = new Uint8Array(await c.res.clone().arrayBuffer());
    const headers: [string, string][] = [];
    c.res.headers.forEach((value, name) => {
      if (!RATE_HEADERS.has(name)) headers.push([name, value]);
    });
    model.keepResponse(
      responseKey(tokenHash, baseOf(c.get('deps'), incoming), incoming.url),
      { status: 200, headers, body, tokenId: caller.tokenId, userId: caller.user.id },
      [tags.token(tokenHash), tags.user(caller.user.id), ...answerTags],
      since,
    );
  };
}

/** The base URL the answer's `urls` were built from (see `baseUrl`). */
function baseOf(deps: Deps, req: IncomingMessage): string {
  return deps.config.publicUrl ?? `http://${req.headers.host ?? ''}`;
}

function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Answers a request from cached bytes when there are some; false sends it on to the app.
 * Runs before Hono builds a request or routes it.
 */
export function cachedResponses(deps: Deps, limiters: RateLimiters) {
  const model = readModelOf(deps.db);
  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
    hit: { status: number; headers: [string, string][]; body: Uint8Array },
  ) => {
    const head: Record<string, string> = Object.fromEntries(hit.headers);
    res.writeHead(hit.status, head);
    res.end(hit.body);
    deps.log.info(
      {
        requestId: req.headers['x-request-id'] ?? crypto.randomUUID(),
        method: req.method,
        path: (req.url ?? '').split('?')[0],
        status: hit.status,
        ms: Math.round(performance.now() - started),
        cached: true,
      },
      'request',
    );
  };

  const answer = (req: IncomingMessage, res: ServerResponse, started: number): boolean => {
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !req.url) return false;
    const hit = model.response(responseKey(tokenHashOf(token), baseOf(deps, req), req.url));
    if (!hit) return false;
    const rate: [string, string][] = [];
    for (const [limiter, key] of [
      [limiters.perAddress, `addr:${req.socket.remoteAddress ?? 'unknown'}`],
      [limiters.perToken, `token:${hit.tokenId}`],
    ] as const) {
      if (limiter.limitPerMinute === 0) continue;
      const r = limiter.hit(key);
      rate.length = 0;
      rate.push(
        ['x-ratelimit-limit', String(limiter.limitPerMinute)],
        ['x-ratelimit-remaining', String(r.remaining)],
        ['x-ratelimit-reset', String(r.resetSeconds)],
      );
      if (!r.allowed) {
        const err = httpAnswerOf(tooManyRequests(r.resetSeconds)) as HttpAnswer;
        const body = Buffer.from(JSON.stringify({ error: { code: err.status, message: err.message } }));
        send(req, res, started, {
          status: err.status,
          headers: [['content-type', 'application/json'], ...rate, ...Object.entries(err.headers)],
          body,
        });
        return true;
      }
    }
    send(req, res, started, { ...hit, headers: [...hit.headers, ...rate] });
    return true;
  };

  return (req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> => {
    if (req.method !== 'GET' || !req.url?.startsWith('/v1/') || hasBody(req) || !model.active) return false;
    const started = performance.now();
    if (deps.db.kind === 'pglite') return answer(req, res, started);
    return model.fence().then((ok) => ok && answer(req, res, started));
  };
}

import type { Context, MiddlewareHandler } from 'hono';
import { badRequest } from '@quire/shared/domainErrors';
import { ApiError } from '../errorStatus';
import type { AppEnv } from '../env';

const MAX_DEPTH = 32;
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;.*)?$/i;

function hasBody(headers: Headers): boolean {
  const len = headers.get('content-length');
  if (len !== null) return Number(len) > 0;
  return headers.has('transfer-encoding');
}

/**
 * Whether a request carries a body. From a socket, the headers say so (HTTP/1.1 needs a
 * length or a chunked encoding), and reading `body` would make the Node adapter build a
 * whole Request (~100 µs) for every GET; a Request made in-process may have neither.
 */
export function sendsBody(c: Context<AppEnv>): boolean {
  if ((c.env as { incoming?: unknown } | undefined)?.incoming) return hasBody(c.req.raw.headers);
  return !!c.req.raw.body;
}

/** Finds the first thing PostgreSQL or our handlers must never see: deep nesting or NUL. */
function inspect(value: unknown, depth: number, path: string): string | undefined {
  if (depth > MAX_DEPTH) return `Invalid body: nested deeper than ${MAX_DEPTH} levels.`;
  if (typeof value === 'string') {
    return value.includes('\u0000') ? `Invalid body field "${path || '(root)'}": must not contain NUL characters.` : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = inspect(value[i], depth + 1, path ? `${path}.${i}` : String(i));
      if (bad) return bad;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) return 'Invalid body: a field name contains a NUL character.';
      const bad = inspect(v, depth + 1, path ? `${path}.${k}` : k);
      if (bad) return bad;
    }
  }
  return undefined;
}

/**
 * Every request body of the API is JSON: anything else is refused before a handler runs,
 * and the parsed value is checked once for depth and NUL characters. Hono caches the
 * parse, so the route validators read the same value.
 */
export function jsonBody(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    if (!hasBody(c.req.raw.headers)) return next();
    const type = c.req.header('content-type') ?? '';
    if (!JSON_TYPE.test(type)) {
      throw new ApiError(415, `Request bodies must be JSON sent as Content-Type: application/json (got "${type || 'none'}").`);
    }
    let parsed: unknown;
    try {
      parsed = await c.req.json();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      // The body-limit wrapper surfaces its own 413; anything else is bad JSON.
      if ((err as { status?: number }).status === 413) throw err;
      throw badRequest('Invalid body: malformed JSON.');
    }
    const bad = inspect(parsed, 0, '');
    if (bad) throw badRequest(bad);
    await next();
  };
}

/**
 * For operations that take no body: none, an empty one or `{}` is fine; any field is
 * refused as an unknown field, so a client never believes an option it sent was applied.
 */
export function noBodyFields(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!sendsBody(c)) return next();
    // jsonBody has parsed it already when it was JSON; Hono answers from that cache.
    const text = await c.req.text();
    if (text.trim() === '') return next();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw badRequest('Invalid body: malformed JSON.');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('Invalid body: this operation takes no body.');
    const keys = Object.keys(parsed);
    if (keys.length > 0) throw badRequest(`Unknown body field${keys.length > 1 ? 's' : ''}: ${keys.map((k) => `"${k}"`).join(', ')}.`);
    await next();
  };
}

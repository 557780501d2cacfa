import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { OpenAPIHono } from '@hono/zod-openapi';
import { Scalar } from '@scalar/hono-api-reference';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { Access } from '../core/access/callerAccess';
import { publishedSiteHosts, registerPublishedSites } from '../sites/app';
import { callerForToken, tokenHashOf } from '../core/access/callers';
import { notFound, unauthorized } from '@quire/shared/domainErrors';
import { ApiError, type HttpAnswer, httpAnswerOf } from './errorStatus';
import type { Metrics } from '../metrics/metrics';
import type { AppEnv, Deps } from './env';
import { idempotency } from './middleware/idempotency';
import { jsonBody, sendsBody } from './middleware/jsonBody';
import { RateLimiter, type RateLimiters, clientAddress, rateLimit, rateLimiters } from './middleware/rateLimit';
import { keepResponses } from './responseCache';
import { registerApiRoutes } from './routes';
import { validationHook } from './validation';

/** File uploads: the body is the file's bytes, not JSON, under their own size limit. */
const FILE_UPLOAD = /^\/v1\/spaces\/[^/]+(\/change-requests\/[^/]+)?\/content\/files\/[^/]+$/;
const isFileUpload = (c: Context<AppEnv>) => c.req.method === 'PUT' && FILE_UPLOAD.test(c.req.path);

/** A git host's push webhook: its body is whatever the host signed (JSON or a form), read raw. */
const GIT_HOOK = /^\/v1\/git\/hooks\/[^/]+$/;
const isGitHook = (c: Context<AppEnv>) => c.req.method === 'POST' && GIT_HOOK.test(c.req.path);

/**
 * Paths under /v1 that answer without a token: the API's description, how a person gets a
 * token, and the git hosts' webhooks (which prove a secret instead).
 */
const PUBLIC_PATHS = [/^\/v1\/openapi\.json$/, /^\/v1\/reference(\/.*)?$/, /^\/v1\/auth\/desktop\/(authorize|token)$/, GIT_HOOK];
/** The desktop sign-in page posts an HTML form, the one body under /v1 that is not JSON besides a webhook's. */
const isSignInForm = (c: Context<AppEnv>) => c.req.method === 'POST' && c.req.path === '/v1/auth/desktop/authorize';

function errorResponse(c: Context<AppEnv>, status: number, message: string, headers: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  return c.json({ error: { code: status, message } }, status as 400);
}

/**
 * DELETE answers 204 whether or not the resource existed. A 404 on the way to it (an
 * unknown or invisible organization, space, change request, comment…) means the resource
 * is not there either, so it gets the same 204 as an unknown id in the last segment.
 */
function deletedNothing(c: Context<AppEnv>, err: HttpAnswer): boolean {
  return err.status === 404 && c.req.method === 'DELETE' && c.req.path.startsWith('/v1/');
}

/** Hono's own refusals (body parsing, content type) in the wording of ours. */
function httpExceptionMessage(c: Context<AppEnv>, err: HTTPException): string {
  if (err.status === 415) return 'Request bodies must be sent as Content-Type: application/json.';
  // A JSON route's validator parsing what jsonBody let through: an empty body, sent as JSON.
  if (err.status === 400 && /malformed json/i.test(err.message)) {
    return c.req.header('content-length') === '0' ? 'Invalid body: empty; send a JSON object.' : 'Invalid body: malformed JSON.';
  }
  return err.message || 'Bad request.';
}

let scalarScript: string | undefined;

export function createApp(deps: Deps, limiters: RateLimiters = rateLimiters(deps.config), metrics?: Metrics) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const { perAddress, perToken } = limiters;
  // The rest of the body is never read, so the connection cannot carry another request.
  const tooLarge = () => new ApiError(413, `Request body is larger than ${deps.config.maxBodyBytes} bytes.`, { Connection: 'close' });
  const limitBody = bodyLimit({
    maxSize: deps.config.maxBodyBytes,
    onError: () => {
      throw tooLarge();
    },
  });

  app.onError((err, c) => {
    const answer = httpAnswerOf(err);
    if (answer) {
      if (deletedNothing(c, answer)) return c.body(null, 204);
      return errorResponse(c, answer.status, answer.message, answer.headers);
    }
    if (err instanceof HTTPException) return errorResponse(c, err.status, httpExceptionMessage(c, err));
    deps.log.error({ err, requestId: c.get('requestId'), path: c.req.path }, 'request failed');
    return errorResponse(c, 500, 'Internal error; it has been logged.');
  });
  app.notFound((c) => errorResponse(c, 404, `No route for ${c.req.method} ${c.req.path}.`));

  app.use('*', async (c, next) => {
    const started = performance.now();
    c.set('deps', deps);
    c.set('requestId', c.req.header('x-request-id') ?? crypto.randomUUID());
    await next();
    deps.log.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - started),
      },
      'request',
    );
  });

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  // Browser-facing paths answer without a token: limited per client address, on their own
  // budgets (a visitor reading a site is not an integration's burst).
  const sitesLimit = rateLimit(new RateLimiter(deps.config.rateLimitSitesPerAddress), (c) => `addr:${clientAddress(c)}`);
  app.use('/s/*', sitesLimit);
  // Signing in (SAML, the desktop sign-in page and its code exchange) shares one budget per address.
  const signInLimit = rateLimit(new RateLimiter(deps.config.rateLimitSsoPerAddress), (c) => `addr:${clientAddress(c)}`);
  app.use('/sso/*', signInLimit);
  app.use('/v1/auth/*', signInLimit);
  app.use('*', publishedSiteHosts(sitesLimit));
  // After the site hostnames: on a site's own hostname, /metrics is that site's path.
  if (metrics) {
    app.get('/metrics', async (c) => {
      c.header('content-type', metrics.contentType);
      c.header('cache-control', 'no-store');
      return c.body(await metrics.render());
    });
  }

  app.use(
    '/v1/*',
    rateLimit(perAddress, (c) => `addr:${clientAddress(c)}`),
  );
  const limitFile = bodyLimit({
    maxSize: deps.config.maxFileBytes,
    onError: () => {
      throw new ApiError(413, `File is larger than ${deps.config.maxFileBytes} bytes (MAX_FILE_BYTES).`, { Connection: 'close' });
    },
  });
  app.use('/v1/*', (c, next) => {
    if (!sendsBody(c)) return next();
    const max = isFileUpload(c) ? deps.config.maxFileBytes : deps.config.maxBodyBytes;
    // A declared length is checked as declared: the stock middleware first reads `body`, which
    // makes the Node adapter build a streaming Request and lose its direct read of the body.
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding')) return (isFileUpload(c) ? limitFile : limitBody)(c, next);
    if (Number(length) > max) {
      if (isFileUpload(c)) throw new ApiError(413, `File is larger than ${max} bytes (MAX_FILE_BYTES).`, { Connection: 'close' });
      throw tooLarge();
    }
    return next();
  });
  const parseJson = jsonBody();
  app.use('/v1/*', (c, next) => (isFileUpload(c) || isSignInForm(c) || isGitHook(c) ? next() : parseJson(c, next)));
  app.use('/v1/*', keepResponses());
  app.use('/v1/*', async (c, next) => {
    if (PUBLIC_PATHS.some((p) => p.test(c.req.path))) return next();
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw unauthorized();
    const found = await callerForToken(deps.db, match[1]);
    if (!found) throw unauthorized('The API token is not valid (unknown or revoked).');
    c.set('caller', found);
    c.set('tokenHash', tokenHashOf(match[1]));
    c.set('access', new Access(deps.db, found.user.id, found.tokenId));
    await next();
  });
  app.use(
    '/v1/*',
    rateLimit(perToken, (c) => (c.get('caller') ? `token:${c.get('caller').tokenId}` : undefined)),
  );
  app.use('/v1/*', async (c, next) => (c.get('caller') ? idempotency()(c, next) : next()));

  registerApiRoutes(app);

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  app.doc31('/v1/openapi.json', (c) => ({
    openapi: '3.1.0',
    info: { title: 'Quire API', version: '1.0.0', description: 'The REST API of a Quire server.' },
    servers: [{ url: deps.config.publicUrl ?? new URL(c.req.url).origin }],
  }));
  // The reference page's script is served from here: self-hosted servers often have no internet.
  app.get('/v1/reference', Scalar({ url: '/v1/openapi.json', pageTitle: 'Quire API reference', cdn: '/v1/reference/scalar.js' }));
  app.get('/v1/reference/scalar.js', (c) => {
    scalarScript ??= readFileSync(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'), 'utf8');
    c.header('content-type', 'text/javascript; charset=utf-8');
    c.header('cache-control', 'public, max-age=86400');
    return c.body(scalarScript);
  });
  registerPublishedSites(app);
  // Answered here, not thrown: an unknown route stays a 404 even for DELETE.
  app.all('/v1/*', (c) => errorResponse(c, 404, notFound('route').message));
  return app;
}

export type App = ReturnType<typeof createApp>;

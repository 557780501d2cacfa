import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { OpenAPIHono } from '@hono/zod-openapi';
import { Scalar } from '@scalar/hono-api-reference';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { Access } from '../core/access';
import { publishedSiteHosts, registerPublishedSites } from '../sites/app';
import { userForToken } from '../store/tokens';
import { ApiError, notFound, unauthorized } from './errors';
import type { AppEnv, Deps } from './env';
import { idempotency } from './middleware/idempotency';
import { jsonBody } from './middleware/jsonBody';
import { RateLimiter, clientAddress, rateLimit } from './middleware/rateLimit';
import { registerApiRoutes } from './routes';
import { validationHook } from './validation';

/** Paths under /v1 that answer without a token. */
const PUBLIC_PATHS = [/^\/v1\/openapi\.json$/, /^\/v1\/reference(\/.*)?$/];

function errorResponse(c: Context<AppEnv>, status: number, message: string, headers: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  return c.json({ error: { code: status, message } }, status as 400);
}

let scalarScript: string | undefined;

export function createApp(deps: Deps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const perAddress = new RateLimiter(deps.config.rateLimitPerAddress);
  const perToken = new RateLimiter(deps.config.rateLimitPerToken);

  app.onError((err, c) => {
    if (err instanceof ApiError) return errorResponse(c, err.status, err.message, err.headers);
    if (err instanceof HTTPException) {
      const message = err.status === 415 ? 'Request bodies must be sent as Content-Type: application/json.' : err.message || 'Bad request.';
      return errorResponse(c, err.status, message);
    }
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
  app.use('*', publishedSiteHosts());

  app.use(
    '/v1/*',
    rateLimit(perAddress, (c) => `addr:${clientAddress(c)}`),
  );
  app.use(
    '/v1/*',
    bodyLimit({
      maxSize: deps.config.maxBodyBytes,
      // The rest of the body is never read, so the connection cannot carry another request.
      onError: () => {
        throw new ApiError(413, `Request body is larger than ${deps.config.maxBodyBytes} bytes.`, { Connection: 'close' });
      },
    }),
  );
  app.use('/v1/*', jsonBody());
  app.use('/v1/*', async (c, next) => {
    if (PUBLIC_PATHS.some((p) => p.test(c.req.path))) return next();
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw unauthorized();
    const found = await userForToken(deps.db, match[1]);
    if (!found) throw unauthorized('The API token is not valid (unknown or revoked).');
    c.set('caller', found);
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
  app.all('/v1/*', () => {
    throw notFound('route');
  });
  return app;
}

export type App = ReturnType<typeof createApp>;

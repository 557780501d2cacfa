import type { OpenAPIHono } from '@hono/zod-openapi';
import { ID_PATTERN as ID } from '@quire/shared';
import { notFound } from '@quire/shared/domainErrors';
import * as commands from '../../core/openapi/commands';
import * as queries from '../../core/openapi/queries';
import { commandContext, publicContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import * as r from './routes';

export function registerOpenAPISpecs(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSpecs, async (c) =>
    c.json(await queries.listSpecs(commandContext(c), { ...c.req.valid('param'), page: c.req.valid('query') }), 200),
  );

  app.openapi(r.createSpec, async (c) =>
    c.json(await commands.createSpec(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 201),
  );

  app.openapi(r.getSpec, async (c) => c.json(await queries.getSpec(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.putSpec, async (c) =>
    c.json(await commands.putSpec(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );

  app.openapi(r.deleteSpec, async (c) => {
    await commands.deleteSpec(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.updateSpec, async (c) =>
    c.json(await commands.updateSpec(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  // A public spec's latest processed document, for anyone with the link (outside /v1: no token).
  app.get('/public/openapi/:orgId/:slug', async (c) => {
    const { orgId, slug } = c.req.param();
    const latest =
      ID.test(orgId) && ID.test(slug)
        ? await queries.publicSpecDocument(publicContext(c), { organizationId: orgId, specSlug: slug })
        : undefined;
    if (!latest) throw notFound('OpenAPI specification');
    c.header('cache-control', 'no-cache');
    return c.json(latest.document as object, 200);
  });
}

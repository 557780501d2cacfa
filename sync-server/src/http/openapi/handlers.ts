import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  type SpecSeen,
  createSpec,
  deleteSpec,
  publicSpecDocument,
  putSpec,
  setSpecVisibility,
  specOf,
  specsOf,
} from '../../core/openapi/specs';
import { ID_PATTERN as ID } from '@quire/shared';
import { notFound } from '@quire/shared/domainErrors';
import type { AppEnv } from '../env';
import { envelope } from '../../core/views/listing';
import { baseUrl } from '../urls';
import { presentSpec } from '../../core/views/openapi';
import * as r from './routes';

type Ctx = Context<AppEnv>;

/** Who may read and change specs is decided in core/openapi/specs.ts. */
function present(c: Ctx, { spec, access }: SpecSeen) {
  return presentSpec(spec, access, baseUrl(c));
}

export function registerOpenAPISpecs(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSpecs, async (c) => {
    const { organizationId } = c.req.valid('param');
    const { page, access } = await specsOf(c.get('deps').db, c.get('access'), organizationId, c.req.valid('query'));
    const base = baseUrl(c);
    return c.json(
      envelope(page, (s) => presentSpec(s, access, base)),
      200,
    );
  });

  app.openapi(r.createSpec, async (c) => {
    const { organizationId } = c.req.valid('param');
    return c.json(present(c, await createSpec(c.get('deps'), c.get('access'), organizationId, c.req.valid('json'))), 201);
  });

  app.openapi(r.getSpec, async (c) => {
    const { organizationId, specSlug } = c.req.valid('param');
    return c.json(present(c, await specOf(c.get('deps').db, c.get('access'), organizationId, specSlug)), 200);
  });

  app.openapi(r.putSpec, async (c) => {
    const { organizationId, specSlug } = c.req.valid('param');
    return c.json(present(c, await putSpec(c.get('deps'), c.get('access'), organizationId, specSlug, c.req.valid('json'))), 200);
  });

  app.openapi(r.deleteSpec, async (c) => {
    const { organizationId, specSlug } = c.req.valid('param');
    await deleteSpec(c.get('deps').db, c.get('access'), organizationId, specSlug);
    return c.body(null, 204);
  });

  app.openapi(r.updateSpec, async (c) => {
    const { organizationId, specSlug } = c.req.valid('param');
    const { visibility } = c.req.valid('json');
    return c.json(present(c, await setSpecVisibility(c.get('deps').db, c.get('access'), organizationId, specSlug, visibility)), 200);
  });

  // A public spec's latest processed document, for anyone with the link (outside /v1: no token).
  app.get('/public/openapi/:orgId/:slug', async (c) => {
    const { orgId, slug } = c.req.param();
    const latest = ID.test(orgId) && ID.test(slug) ? await publicSpecDocument(c.get('deps').db, orgId, slug) : undefined;
    if (!latest) throw notFound('OpenAPI specification');
    c.header('cache-control', 'no-cache');
    return c.json(latest.document as object, 200);
  });
}

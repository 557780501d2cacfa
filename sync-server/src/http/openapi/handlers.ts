import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { scheduleSpecProcessing } from '../../core/openapi/process';
import * as specs from '../../store/openapiSpecs';
import { ID_PATTERN as ID } from '@quire/shared';
import { conflict, notFound } from '@quire/shared/apiErrors';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { envelope } from '../listing';
import { baseUrl } from '../urls';
import { presentSpec } from '../presenters/openapi';
import * as r from './routes';

type Ctx = Context<AppEnv>;

/** Specs are organization content: members with a role read them; guests (no role) do not. */
const READ = 'read' as const;
/** Creating and changing specs is what the organization's `createOpenAPISpec` permission grants. */
const WRITE = 'create' as const;

function start(c: Ctx, specId: string) {
  void scheduleSpecProcessing(c.get('deps'), specId);
}

async function present(c: Ctx, orgId: string, slug: string) {
  const { access } = await requireOrg(c, orgId);
  const spec = await specs.getSpecBySlug(c.get('deps').db, orgId, slug);
  if (!spec) throw notFound('OpenAPI specification');
  return presentSpec(spec, access, baseUrl(c));
}

export function registerOpenAPISpecs(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSpecs, async (c) => {
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, READ);
    const page = await specs.listSpecs(c.get('deps').db, organizationId, c.req.valid('query'));
    const base = baseUrl(c);
    return c.json(
      envelope(page, (s) => presentSpec(s, access, base)),
      200,
    );
  });

  app.openapi(r.createSpec, async (c) => {
    const { organizationId } = c.req.valid('param');
    await requireOrg(c, organizationId, WRITE);
    const b = c.req.valid('json');
    const spec = await specs.insertSpec(c.get('deps').db, organizationId, b.slug, b.source, b.visibility);
    if (!spec)
      throw conflict(
        `An OpenAPI specification with the slug "${b.slug}" already exists in this organization; PUT it to replace its source.`,
      );
    start(c, spec.id);
    return c.json(await present(c, organizationId, b.slug), 201);
  });

  app.openapi(r.getSpec, async (c) => {
    const { organizationId, specSlug } = c.req.valid('param');
    await requireOrg(c, organizationId, READ);
    return c.json(await present(c, organizationId, specSlug), 200);
  });

  app.openapi(r.putSpec, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, specSlug } = c.req.valid('param');
    await requireOrg(c, organizationId, WRITE);
    const b = c.req.valid('json');
    // Insert or replace in one statement pair: a concurrent create of the same slug lands in one of the branches.
    const inserted = await specs.insertSpec(db, organizationId, specSlug, b.source, b.visibility);
    const spec = inserted ?? (await specs.getSpecBySlug(db, organizationId, specSlug));
    if (!spec) throw notFound('OpenAPI specification');
    if (!inserted) await specs.replaceSource(db, spec.id, b.source, b.visibility);
    start(c, spec.id);
    return c.json(await present(c, organizationId, specSlug), 200);
  });

  app.openapi(r.deleteSpec, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, specSlug } = c.req.valid('param');
    await requireOrg(c, organizationId);
    // An unknown slug is still 204; an existing spec needs the right to change specs.
    if (!(await specs.getSpecBySlug(db, organizationId, specSlug))) return c.body(null, 204);
    await requireOrg(c, organizationId, WRITE);
    await specs.deleteSpec(db, organizationId, specSlug);
    return c.body(null, 204);
  });

  app.openapi(r.updateSpec, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, specSlug } = c.req.valid('param');
    await requireOrg(c, organizationId, WRITE);
    const spec = await specs.getSpecBySlug(db, organizationId, specSlug);
    if (!spec) throw notFound('OpenAPI specification');
    await specs.setVisibility(db, spec.id, c.req.valid('json').visibility);
    return c.json(await present(c, organizationId, specSlug), 200);
  });

  // A public spec's latest processed document, for anyone with the link (outside /v1: no token).
  app.get('/public/openapi/:orgId/:slug', async (c) => {
    const { db } = c.get('deps');
    const { orgId, slug } = c.req.param();
    const spec = ID.test(orgId) && ID.test(slug) ? await specs.getSpecBySlug(db, orgId, slug) : undefined;
    const latest = spec?.visibility === 'public' ? await specs.latestSpecDocument(db, spec.id) : undefined;
    if (!latest) throw notFound('OpenAPI specification');
    c.header('cache-control', 'no-cache');
    return c.json(latest.document as object, 200);
  });
}

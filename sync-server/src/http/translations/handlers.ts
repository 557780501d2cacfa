import type { OpenAPIHono } from '@hono/zod-openapi';
import * as core from '../../core/translations/translations';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { envelope } from '../../core/views/listing';
import { presentTranslation } from '../../core/views/translation';
import { baseUrl } from '../urls';
import * as r from './routes';

export function registerTranslations(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listTranslations, async (c) => {
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    const page = await core.listTranslations(c.get('deps').db, access, c.req.valid('query'));
    const base = baseUrl(c);
    return c.json(
      envelope(page, (t) => presentTranslation(t, access, base)),
      200,
    );
  });

  app.openapi(r.createTranslation, async (c) => {
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, 'translate');
    const t = await core.createTranslation(c.get('deps').db, access, c.req.valid('json'));
    return c.json(presentTranslation(t, access, baseUrl(c)), 200);
  });

  app.openapi(r.getTranslation, async (c) => {
    const { organizationId, translationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    const t = await core.getTranslation(c.get('deps').db, access, translationId);
    return c.json(presentTranslation(t, access, baseUrl(c)), 200);
  });

  app.openapi(r.updateTranslation, async (c) => {
    const { organizationId, translationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    const t = await core.updateTranslation(c.get('deps').db, access, translationId, c.req.valid('json'));
    return c.json(presentTranslation(t, access, baseUrl(c)), 200);
  });

  app.openapi(r.deleteTranslation, async (c) => {
    const { organizationId, translationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    await core.deleteTranslation(c.get('deps').db, access, translationId);
    return c.body(null, 204);
  });

  app.openapi(r.runTranslation, async (c) => {
    const { organizationId, translationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    await core.runTranslationNow(c.get('deps'), access, translationId);
    return c.body(null, 204);
  });
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../core/translations/commands';
import * as queries from '../../core/translations/queries';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import * as r from './routes';

export function registerTranslations(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listTranslations, async (c) =>
    c.json(await queries.listTranslations(commandContext(c), { ...c.req.valid('param'), page: c.req.valid('query') }), 200),
  );

  app.openapi(r.createTranslation, async (c) =>
    c.json(await commands.createTranslation(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );

  app.openapi(r.getTranslation, async (c) => c.json(await queries.getTranslation(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.updateTranslation, async (c) =>
    c.json(await commands.updateTranslation(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.deleteTranslation, async (c) => {
    await commands.deleteTranslation(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.runTranslation, async (c) => {
    await commands.runTranslation(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import { searchOrganization, searchSpace } from '../../core/content/queries';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import * as r from './routes';

export function registerSearch(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.searchSpace, async (c) =>
    c.json(await searchSpace(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('query') }), 200),
  );
  app.openapi(r.searchOrganization, async (c) =>
    c.json(await searchOrganization(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('query') }), 200),
  );
}

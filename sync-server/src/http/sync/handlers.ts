import type { OpenAPIHono } from '@hono/zod-openapi';
import { createSyncTicket } from '../../core/sync/commands';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import * as r from './routes';

export function registerSync(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.createSyncTicket, async (c) => c.json(await createSyncTicket(commandContext(c), c.req.valid('json')), 201));
}

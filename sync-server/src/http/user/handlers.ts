import type { OpenAPIHono } from '@hono/zod-openapi';
import { IdSchema, UserSchema } from '@quire/shared';
import { z } from 'zod';
import * as queries from '../../core/users/queries';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import { apiRoute, json } from '../openapi';

const getCurrentUser = apiRoute({
  method: 'get',
  path: '/v1/user',
  tags: ['Users'],
  summary: 'The caller',
  responses: { 200: json(UserSchema) },
});

/** Where every User's `urls.location` points. */
const getUserById = apiRoute({
  method: 'get',
  path: '/v1/users/{userId}',
  tags: ['Users'],
  summary: 'A user the caller shares an organization with (or the caller)',
  request: { params: z.object({ userId: IdSchema }) },
  responses: { 200: json(UserSchema) },
});

export function registerUser(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCurrentUser, (c) => c.json(queries.getCurrentUser(commandContext(c)), 200));

  app.openapi(getUserById, async (c) => c.json(await queries.getUser(commandContext(c), c.req.valid('param')), 200));
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import { IdSchema, UserSchema } from '@quire/shared';
import { z } from 'zod';
import { userSeenBy } from '../../core/access/callers';
import type { AppEnv } from '../env';
import { apiRoute, json } from '../openapi';
import { presentUser } from '../../core/views/user';
import { baseUrl } from '../urls';

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
  app.openapi(getCurrentUser, (c) => c.json(presentUser(c.get('caller').user, baseUrl(c)), 200));

  app.openapi(getUserById, async (c) => {
    const user = await userSeenBy(c.get('deps').db, c.get('caller'), c.req.valid('param').userId);
    return c.json(presentUser(user, baseUrl(c)), 200);
  });
}

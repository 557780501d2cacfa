import type { OpenAPIHono } from '@hono/zod-openapi';
import { UserSchema } from '@quire/shared';
import type { AppEnv } from '../env';
import { apiRoute, json } from '../openapi';
import { presentUser } from '../presenters/user';
import { baseUrl } from '../urls';

const getCurrentUser = apiRoute({
  method: 'get',
  path: '/v1/user',
  tags: ['Users'],
  summary: 'The caller',
  responses: { 200: json(UserSchema) },
});

export function registerUser(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCurrentUser, (c) => c.json(presentUser(c.get('caller').user, baseUrl(c)), 200));
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import { IdSchema, UserSchema } from '@quire/shared';
import { z } from 'zod';
import { ssoTokenOrg } from '../../store/saml';
import { getUserSeenBy } from '../../store/users';
import type { AppEnv } from '../env';
import { notFound } from '../errors';
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
    // Anyone else answers as an unknown id: user ids of other organizations reveal nothing.
    const { db } = c.get('deps');
    const scope = await ssoTokenOrg(db, c.get('caller').tokenId);
    const user = await getUserSeenBy(db, c.req.valid('param').userId, c.get('caller').user.id, scope);
    if (!user) throw notFound('user');
    return c.json(presentUser(user, baseUrl(c)), 200);
  });
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import { IdSchema, UserSchema } from '@quire/shared';
import { ChangePasswordBodySchema } from '@quire/shared/schemas/user';
import { z } from 'zod';
import * as queries from '../../core/users/queries';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import { changePassword } from '../../core/desktopSignIn/changePassword';
import { apiRoute, body, json, noContent } from '../openapi';

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

const changeOwnPassword = apiRoute({
  method: 'put',
  path: '/v1/user/password',
  tags: ['Users'],
  summary: 'Change the password the caller signs in with',
  description:
    'The caller proves the current password and sets a new one (at least 12 characters, not the current one), used from then on by the desktop sign-in page. ' +
    'A wrong `currentPassword` is a 403 and counts towards the lockout of password sign-in: ten wrong passwords within 15 minutes, here or on the sign-in page, ' +
    'lock that address for 15 minutes (429 with Retry-After). API tokens already issued keep working.',
  request: { body: body(ChangePasswordBodySchema) },
  responses: { ...noContent },
});

export function registerUser(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCurrentUser, (c) => c.json(queries.getCurrentUser(commandContext(c)), 200));

  app.openapi(changeOwnPassword, async (c) => {
    await changePassword(commandContext(c), c.req.valid('json'));
    return c.body(null, 204);
  });

  app.openapi(getUserById, async (c) => c.json(await queries.getUser(commandContext(c), c.req.valid('param')), 200));
}

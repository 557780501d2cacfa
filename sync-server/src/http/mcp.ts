import type { OpenAPIHono } from '@hono/zod-openapi';
import { answerOrganizationMcp, organizationEndpoint } from '../mcp/organization';
import type { AppEnv } from './env';

/** `/v1/mcp`: behind the API's authentication, rate limits and body limit like every /v1 route. */
export function registerMcp(app: OpenAPIHono<AppEnv>) {
  app.all('/v1/mcp', (c) => answerOrganizationMcp(c, organizationEndpoint));
}

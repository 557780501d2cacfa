import type { OpenAPIHono } from '@hono/zod-openapi';
import { registerChangeRequests } from '../changeRequests/handlers';
import type { AppEnv } from '../env';
import { registerSearch } from '../search/handlers';
import { registerContent } from './handlers';
import { registerPageHistory } from './history';

/** Space content, change requests and search: the routes of the content feature. */
export function registerContentApi(app: OpenAPIHono<AppEnv>) {
  registerContent(app);
  registerPageHistory(app);
  registerChangeRequests(app);
  registerSearch(app);
}

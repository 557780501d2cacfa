import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './env';
import { registerDesktopAuth } from './auth/handlers';
import { registerChangeRequestComments } from './changeRequestComments/handlers';
import { registerCollections } from './collections/handlers';
import { registerComments } from './comments/handlers';
import { registerContentApi } from './content/register';
import { registerGit } from './git/handlers';
import { registerInsights } from './insights/handlers';
import { registerMcp } from './mcp';
import { registerMembers } from './members/handlers';
import { registerOpenAPISpecs } from './openapi/handlers';
import { registerOrganizations } from './organizations/handlers';
import { registerSaml } from './saml/handlers';
import { registerSites } from './sites/handlers';
import { registerSpaces } from './spaces/handlers';
import { registerSync } from './sync/handlers';
import { registerTeams } from './teams/handlers';
import { registerTranslations } from './translations/handlers';
import { registerUser } from './user/handlers';
import { registerWebhooks } from './webhooks/handlers';

/** Every resource family of /v1; each registers its own routes. */
export function registerApiRoutes(app: OpenAPIHono<AppEnv>) {
  registerUser(app);
  registerDesktopAuth(app);
  registerOrganizations(app);
  registerMembers(app);
  registerTeams(app);
  registerCollections(app);
  registerSpaces(app);
  registerContentApi(app);
  registerGit(app);
  registerSync(app);
  registerOpenAPISpecs(app);
  registerSaml(app);
  registerComments(app);
  registerChangeRequestComments(app);
  registerTranslations(app);
  registerSites(app);
  registerInsights(app);
  registerMcp(app);
  registerWebhooks(app);
}

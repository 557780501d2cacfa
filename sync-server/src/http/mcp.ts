import type { OpenAPIHono } from '@hono/zod-openapi';
import { type OrganizationOperations, answerOrganizationMcp, organizationEndpoint } from '../mcp/organization';
import { mergeChangeRequestAs, orgChangeRequests, reviewChangeRequest, spaceChangeRequests } from './changeRequests/handlers';
import * as comments from './comments/threads';
import { pageTree, readPage } from './content/handlers';
import type { AppEnv } from './env';
import { organizationList, orgSpaceList } from './organizations/handlers';
import { presentChangeRequest } from './presenters/changeRequest';
import { cacheable } from './responseCache';
import { searchOrganization, searchSpace } from './search/handlers';

/**
 * The /v1 operations the organization's MCP tools (`mcp/organization.ts`) answer with: the
 * very functions the REST routes run, so a tool's answer and access are the REST call's.
 */
const operations: OrganizationOperations = {
  organizations: organizationList,
  spaces: orgSpaceList,
  searchOrganization,
  searchSpace,
  pageTree,
  readPage,
  spaceChangeRequests,
  organizationChangeRequests: orgChangeRequests,
  review: reviewChangeRequest,
  merge: mergeChangeRequestAs,
  presentChangeRequest,
  cacheable: (c, answerTags) => cacheable(c, answerTags as Parameters<typeof cacheable>[1]),
  listComments: comments.listComments,
  createComment: comments.createComment,
  createReply: comments.createReply,
};

const ORGANIZATION = organizationEndpoint(operations);

/** `/v1/mcp`: behind the API's authentication, rate limits and body limit like every /v1 route. */
export function registerMcp(app: OpenAPIHono<AppEnv>) {
  app.all('/v1/mcp', (c) => answerOrganizationMcp(c, ORGANIZATION));
}

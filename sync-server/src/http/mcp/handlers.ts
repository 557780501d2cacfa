import type { OpenAPIHono } from '@hono/zod-openapi';
import { badRequest } from '@quire/shared/domainErrors';
import { type ChangeRequestListQuery, CreateReviewBody, OrgChangeRequestListQuery } from '@quire/shared/schemas/changeRequest';
import { CreateCommentBody, CreateCommentReplyBody, ListCommentsQuery } from '@quire/shared/schemas/comment';
import { IdSchema, ListQuerySchema } from '@quire/shared/schemas/common';
import { ContentQuery, PageQuery } from '@quire/shared/schemas/content';
import { ProposeEditArgs } from '@quire/shared/schemas/mcp';
import { SearchQuery } from '@quire/shared/schemas/search';
import type { Context } from 'hono';
import { z } from 'zod';
import { proposeEdit as proposeEditIn, type ProposedEditTarget } from '../../core/content/proposedEdits';
import { mergeChangeRequestAs, orgChangeRequests, reviewChangeRequest, spaceChangeRequests } from '../changeRequests/handlers';
import { presentChangeRequest } from '../presenters/changeRequest';
import * as comments from '../comments/threads';
import { pageTree, readPage } from '../content/handlers';
import type { AppEnv } from '../env';
import { requireChangeRequest, requireSpace } from '../guards';
import { organizationList, orgSpaceList } from '../organizations/handlers';
import { OrgParams, SpaceParams } from '../params';
import { searchOrganization, searchSpace } from '../search/handlers';
import { baseUrl } from '../urls';
import { cacheable } from '../responseCache';
import { tags } from '../../core/readModel';
import { organizationAnswers } from './organizationAnswers';
import { answerMcp, type McpEndpoint, tool } from '../../web/mcp/server';

/**
 * The organization as an MCP server at `/v1/mcp`, for an API token: each tool is a /v1
 * operation (its zod schemas, its access checks, its answer) called in-process as the
 * token's user, so the caller's role decides exactly as it does over REST.
 */

type Ctx = Context<AppEnv>;

/** Arguments of a tool: a /v1 operation's path parameters and its query or body, as one object. */
function args<A extends z.ZodRawShape, B extends z.ZodRawShape>(a: A, b: B) {
  return z.strictObject({ ...a, ...b });
}

const ChangeRequestRef = { spaceId: IdSchema, changeRequestId: IdSchema };
const OptionalChangeRequest = { changeRequestId: IdSchema.optional() };
const LIST_TEXT = ['limit'] as const;

/** The comments of main, or of a change request when one is named. */
function commentScope(c: Ctx, a: { spaceId: string; changeRequestId?: string }) {
  return a.changeRequestId ? comments.changeRequestScope(c, a.spaceId, a.changeRequestId) : comments.spaceScope(c, a.spaceId);
}

/**
 * Says the answer just computed from a space's content (of main or of a change request) may
 * be kept: the revision read is named by the space's or the change request's row (both tag
 * `s:<space>`), and the caller's right to read it by the organization's access rows.
 */
async function keepRead(c: Ctx, spaceId: string) {
  const { space } = await requireSpace(c, spaceId);
  cacheable(c, [tags.space(space.id), tags.org(space.org_id), tags.access(space.org_id)]);
}

async function proposeEdit(c: Ctx, a: ProposeEditArgs) {
  const target = a.target ?? 'change-request';
  if (!a.pageId && !a.title) throw badRequest('Missing argument field "title": a new page needs one.');
  if (target === 'main' && (a.changeRequestId || a.subject)) {
    throw badRequest(
      `Invalid argument field "${a.changeRequestId ? 'changeRequestId' : 'subject'}": an edit of main opens no change request.`,
    );
  }
  const { space, access } = await requireSpace(c, a.spaceId, 'edit');
  const edit = { pageId: a.pageId, title: a.title, parentPageId: a.parentPageId, markdown: a.markdown };
  const where: ProposedEditTarget =
    target === 'main'
      ? { kind: 'main' }
      : a.changeRequestId
        ? { kind: 'change-request', cr: (await requireChangeRequest(c, space.id, a.changeRequestId, 'edit')).cr }
        : { kind: 'new', subject: a.subject ?? `Edit ${a.title ?? 'a page'}` };
  const { changeRequest, ...written } = await proposeEditIn(c.get('deps').db, space, where, edit, c.get('caller').user.id);
  if (target === 'main') return { target, ...written };
  return { target, ...written, changeRequest: changeRequest && presentChangeRequest(changeRequest, access, baseUrl(c)) };
}

export const ORGANIZATION: McpEndpoint<Ctx> = {
  name: 'quire',
  instructions: () =>
    'Quire documentation, as the API token allows. Find spaces with list_organizations and list_spaces or search, read pages as markdown with list_pages and read_page, and propose changes with propose_edit: edits go into a change request for review unless target "main" is asked for. Change requests are listed, reviewed and merged with their tools; comments are read and posted on main or on a change request.',
  tools: [
    tool({
      name: 'list_organizations',
      title: 'List organizations',
      description: 'The organizations the token belongs to (GET /v1/orgs).',
      input: args(ListQuerySchema.shape, {}),
      textFields: LIST_TEXT,
      readOnly: true,
      run: (c, a) => organizationList(c, a),
    }),
    tool({
      name: 'list_spaces',
      title: 'List spaces',
      description: 'The spaces of an organization the caller may see (GET /v1/orgs/{organizationId}/spaces).',
      input: args(OrgParams.shape, ListQuerySchema.shape),
      textFields: LIST_TEXT,
      readOnly: true,
      run: (c, { organizationId, ...q }) => orgSpaceList(c, organizationId, q),
    }),
    tool({
      name: 'search',
      title: 'Search an organization',
      description:
        'Full-text search across the spaces of an organization: spaces with their matching pages (GET /v1/orgs/{organizationId}/search).',
      input: args(OrgParams.shape, SearchQuery.shape),
      textFields: LIST_TEXT,
      readOnly: true,
      run: (c, { organizationId, ...q }) => searchOrganization(c, organizationId, q),
    }),
    tool({
      name: 'search_space',
      title: 'Search a space',
      description: 'Full-text search in one space (GET /v1/spaces/{spaceId}/search).',
      input: args(SpaceParams.shape, SearchQuery.shape),
      textFields: LIST_TEXT,
      readOnly: true,
      run: (c, { spaceId, ...q }) => searchSpace(c, spaceId, q),
    }),
    tool({
      name: 'list_pages',
      title: 'List pages',
      description: 'The page tree of a space, or of one of its change requests (GET .../content/pages).',
      input: args(SpaceParams.shape, { ...OptionalChangeRequest, ...ContentQuery.pick({ metadata: true }).shape }),
      textFields: ['metadata'],
      readOnly: true,
      kept: true,
      run: async (c, { spaceId, changeRequestId, ...q }) => {
        const tree = await pageTree(c, { spaceId, changeRequestId }, q);
        await keepRead(c, spaceId);
        return tree;
      },
    }),
    tool({
      name: 'read_page',
      title: 'Read a page',
      description:
        'A page as GitBook-flavoured markdown, from main or from a change request (GET .../content/page/{pageId}?format=markdown). The text is the body exactly as propose_edit takes it back.',
      input: args(
        { ...SpaceParams.shape, pageId: IdSchema, ...OptionalChangeRequest },
        PageQuery.pick({ evaluated: true, 'format.markdown.refs': true }).shape,
      ),
      textFields: ['evaluated'],
      readOnly: true,
      kept: true,
      run: async (c, { spaceId, pageId, changeRequestId, ...q }) => {
        const page = await readPage(c, { spaceId, pageId, changeRequestId }, { ...q, format: 'markdown' });
        // A computed page shows an OpenAPI specification, whose rows the read model does not track.
        if (!page.computed) await keepRead(c, spaceId);
        return (page as { markdown: string }).markdown;
      },
    }),
    tool({
      name: 'propose_edit',
      title: 'Propose an edit',
      description:
        'Replaces a page body with markdown (or adds a page when pageId is left out). The edit goes into a change request: the one named, else a new one. Only with target "main" does it write to main directly, and only for a caller with the edit role on a space that is not locked.',
      input: ProposeEditArgs,
      readOnly: false,
      run: (c, a) => proposeEdit(c, a),
    }),
    tool({
      name: 'list_change_requests',
      title: 'List change requests',
      description:
        'Change requests of an organization, or of one space with spaceId (GET /v1/orgs/{organizationId}/change-requests, GET /v1/spaces/{spaceId}/change-requests).',
      input: args({ organizationId: IdSchema.optional(), spaceId: IdSchema.optional() }, OrgChangeRequestListQuery.shape),
      textFields: LIST_TEXT,
      readOnly: true,
      run: (c, { organizationId, spaceId, ...q }) => {
        if (spaceId) return spaceChangeRequests(c, spaceId, withoutOrgFilters(q));
        if (!organizationId) throw badRequest('Missing argument field "organizationId": name an organization or a space.');
        return orgChangeRequests(c, organizationId, q);
      },
    }),
    tool({
      name: 'review_change_request',
      title: 'Review a change request',
      description: 'Approves or requests changes on a change request, with an optional comment (POST .../reviews).',
      input: args(ChangeRequestRef, CreateReviewBody.shape),
      readOnly: false,
      run: (c, { spaceId, changeRequestId, ...b }) => reviewChangeRequest(c, spaceId, changeRequestId, b),
    }),
    tool({
      name: 'merge_change_request',
      title: 'Merge a change request',
      description: 'Merges a change request into main; needs the review role and the merge rules met (POST .../merge).',
      input: args(ChangeRequestRef, {}),
      readOnly: false,
      run: (c, { spaceId, changeRequestId }) => mergeChangeRequestAs(c, spaceId, changeRequestId),
    }),
    tool({
      name: 'list_comments',
      title: 'List comments',
      description: 'Comments on main, or on a change request when changeRequestId is given (GET .../comments).',
      input: args({ ...SpaceParams.shape, ...OptionalChangeRequest }, ListCommentsQuery.shape),
      textFields: LIST_TEXT,
      readOnly: true,
      run: async (c, { spaceId, changeRequestId, ...q }) =>
        comments.listComments(c, await commentScope(c, { spaceId, changeRequestId }), q),
    }),
    tool({
      name: 'post_comment',
      title: 'Post a comment',
      description: 'A new comment on main or on a change request, optionally on a page (POST .../comments).',
      input: args({ ...SpaceParams.shape, ...OptionalChangeRequest }, CreateCommentBody.shape),
      readOnly: false,
      run: async (c, { spaceId, changeRequestId, ...b }) =>
        comments.createComment(c, await commentScope(c, { spaceId, changeRequestId }), b),
    }),
    tool({
      name: 'reply_to_comment',
      title: 'Reply to a comment',
      description: 'A reply to a comment on main or on a change request (POST .../comments/{commentId}/replies).',
      input: args({ ...SpaceParams.shape, ...OptionalChangeRequest, commentId: IdSchema }, CreateCommentReplyBody.shape),
      readOnly: false,
      run: async (c, { spaceId, changeRequestId, commentId, ...b }) =>
        comments.createReply(c, await commentScope(c, { spaceId, changeRequestId }), commentId, b),
    }),
  ],
};

/** The organization-wide filters have no meaning within one space. */
function withoutOrgFilters(q: z.output<typeof OrgChangeRequestListQuery>): z.output<typeof ChangeRequestListQuery> {
  const { space: _s, site: _t, styleguideRun: _r, finding: _f, ...rest } = q;
  return rest;
}

/** `/v1/mcp`: behind the API's authentication, rate limits and body limit like every /v1 route. */
export function registerMcp(app: OpenAPIHono<AppEnv>) {
  app.all('/v1/mcp', async (c) => {
    const { log, config } = c.get('deps');
    // jsonBody has read and checked the body; the transport takes the parsed value.
    const parsedBody = c.req.method === 'POST' ? await c.req.json().catch(() => undefined) : undefined;
    return answerMcp(c, ORGANIZATION, c, { log, parsedBody, maxBodyBytes: config.maxBodyBytes, answers: organizationAnswers(c) });
  });
}

import { badRequest } from '@quire/shared/domainErrors';
import { type ChangeRequestListQuery, CreateReviewBody, OrgChangeRequestListQuery } from '@quire/shared/schemas/changeRequest';
import { CreateCommentBody, CreateCommentReplyBody, ListCommentsQuery } from '@quire/shared/schemas/comment';
import { IdSchema, ListQuerySchema } from '@quire/shared/schemas/common';
import { ContentQuery, PageQuery } from '@quire/shared/schemas/content';
import { ProposeEditArgs } from '@quire/shared/schemas/mcp';
import { SearchQuery } from '@quire/shared/schemas/search';
import type { Context } from 'hono';
import { z } from 'zod';
import { type ProposedEditTarget, proposeEdit as proposeEditIn } from '../core/content/proposedEdits';
import { tags } from '../core/readModel/readModel';
import { changeRequestSeenBy, spaceSeenBy } from '../core/access/resourceAccess';
import { mergeChangeRequest, reviewChangeRequest } from '../core/changeRequests/commands';
import { listOrganizationChangeRequests, listSpaceChangeRequests } from '../core/changeRequests/queries';
import * as commentCommands from '../core/comments/commands';
import * as commentQueries from '../core/comments/queries';
import { pageTree, readPage, searchOrganization, searchSpace } from '../core/content/queries';
import { listOrganizations } from '../core/organizations/queries';
import { listOrganizationSpaces } from '../core/spaces/queries';
import { presentChangeRequest } from '../core/views/changeRequest';
import { commandContext } from '../web/commandContext';
import { baseUrl } from '../web/baseUrl';
import type { AppEnv } from '../web/env';
import { organizationAnswers } from './organizationAnswers';
import { answerMcp, type McpEndpoint, tool } from './server';

type Ctx = Context<AppEnv>;

/**
 * The organization as an MCP server at `/v1/mcp`, for an API token: each tool is a /v1
 * operation (its zod schemas, and the core command or query the REST route calls, with its
 * access checks and its view model) run as the token's user, so the caller's role decides
 * exactly as it does over REST.
 */

/** Arguments of a tool: a /v1 operation's path parameters and its query or body, as one object. */
function args<A extends z.ZodRawShape, B extends z.ZodRawShape>(a: A, b: B) {
  return z.strictObject({ ...a, ...b });
}

const OrgParams = z.object({ organizationId: IdSchema });
const SpaceParams = z.object({ spaceId: IdSchema });
const ChangeRequestRef = { spaceId: IdSchema, changeRequestId: IdSchema };
const OptionalChangeRequest = { changeRequestId: IdSchema.optional() };
const LIST_TEXT = ['limit'] as const;

/**
 * Says the answer just computed from a space's content (of main or of a change request) may
 * be kept: the revision read is named by the space's or the change request's row (both tag
 * `s:<space>`), and the caller's right to read it by the organization's access rows.
 */
async function keepRead(c: Ctx, spaceId: string) {
  const { space } = await spaceSeenBy(c.get('deps').db, c.get('access'), spaceId, 'view');
  c.set('cacheTags', [tags.space(space.id), tags.org(space.org_id), tags.access(space.org_id)]);
}

async function proposeEdit(c: Ctx, a: ProposeEditArgs) {
  const target = a.target ?? 'change-request';
  if (!a.pageId && !a.title) throw badRequest('Missing argument field "title": a new page needs one.');
  if (target === 'main' && (a.changeRequestId || a.subject)) {
    throw badRequest(
      `Invalid argument field "${a.changeRequestId ? 'changeRequestId' : 'subject'}": an edit of main opens no change request.`,
    );
  }
  const { db } = c.get('deps');
  const { space, access } = await spaceSeenBy(db, c.get('access'), a.spaceId, 'edit');
  const edit = { pageId: a.pageId, title: a.title, parentPageId: a.parentPageId, markdown: a.markdown };
  const where: ProposedEditTarget =
    target === 'main'
      ? { kind: 'main' }
      : a.changeRequestId
        ? { kind: 'change-request', cr: (await changeRequestSeenBy(db, c.get('access'), space.id, a.changeRequestId, 'edit')).cr }
        : { kind: 'new', subject: a.subject ?? `Edit ${a.title ?? 'a page'}` };
  const { changeRequest, ...written } = await proposeEditIn(db, space, where, edit, c.get('caller').user.id);
  if (target === 'main') return { target, ...written };
  return { target, ...written, changeRequest: changeRequest && presentChangeRequest(changeRequest, access, baseUrl(c)) };
}

/** The organization's tools. */
export const organizationEndpoint: McpEndpoint<Ctx> = {
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
      run: (c, a) => listOrganizations(commandContext(c), a),
    }),
    tool({
      name: 'list_spaces',
      title: 'List spaces',
      description: 'The spaces of an organization the caller may see (GET /v1/orgs/{organizationId}/spaces).',
      input: args(OrgParams.shape, ListQuerySchema.shape),
      textFields: LIST_TEXT,
      readOnly: true,
      run: (c, { organizationId, ...page }) => listOrganizationSpaces(commandContext(c), { organizationId, page }),
    }),
    tool({
      name: 'search',
      title: 'Search an organization',
      description:
        'Full-text search across the spaces of an organization: spaces with their matching pages (GET /v1/orgs/{organizationId}/search).',
      input: args(OrgParams.shape, SearchQuery.shape),
      textFields: LIST_TEXT,
      readOnly: true,
      run: (c, a) => searchOrganization(commandContext(c), a),
    }),
    tool({
      name: 'search_space',
      title: 'Search a space',
      description: 'Full-text search in one space (GET /v1/spaces/{spaceId}/search).',
      input: args(SpaceParams.shape, SearchQuery.shape),
      textFields: LIST_TEXT,
      readOnly: true,
      run: (c, a) => searchSpace(commandContext(c), a),
    }),
    tool({
      name: 'list_pages',
      title: 'List pages',
      description: 'The page tree of a space, or of one of its change requests (GET .../content/pages).',
      input: args(SpaceParams.shape, { ...OptionalChangeRequest, ...ContentQuery.pick({ metadata: true }).shape }),
      textFields: ['metadata'],
      readOnly: true,
      kept: true,
      run: async (c, a) => {
        const tree = await pageTree(commandContext(c), a);
        await keepRead(c, a.spaceId);
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
      run: async (c, a) => {
        const page = await readPage(commandContext(c), { ...a, format: 'markdown' });
        // A computed page shows an OpenAPI specification, whose rows the read model does not track.
        if (!page.computed) await keepRead(c, a.spaceId);
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
        if (spaceId) return listSpaceChangeRequests(commandContext(c), { spaceId, ...withoutOrgFilters(q) });
        if (!organizationId) throw badRequest('Missing argument field "organizationId": name an organization or a space.');
        return listOrganizationChangeRequests(commandContext(c), { organizationId, ...q });
      },
    }),
    tool({
      name: 'review_change_request',
      title: 'Review a change request',
      description: 'Approves or requests changes on a change request, with an optional comment (POST .../reviews).',
      input: args(ChangeRequestRef, CreateReviewBody.shape),
      readOnly: false,
      run: (c, a) => reviewChangeRequest(commandContext(c), a),
    }),
    tool({
      name: 'merge_change_request',
      title: 'Merge a change request',
      description: 'Merges a change request into main; needs the review role and the merge rules met (POST .../merge).',
      input: args(ChangeRequestRef, {}),
      readOnly: false,
      run: (c, a) => mergeChangeRequest(commandContext(c), a),
    }),
    tool({
      name: 'list_comments',
      title: 'List comments',
      description: 'Comments on main, or on a change request when changeRequestId is given (GET .../comments).',
      input: args({ ...SpaceParams.shape, ...OptionalChangeRequest }, ListCommentsQuery.shape),
      textFields: LIST_TEXT,
      readOnly: true,
      run: async (c, { spaceId, changeRequestId, ...q }) =>
        commentQueries.listComments(commandContext(c), { spaceId, changeRequestId, query: q }),
    }),
    tool({
      name: 'post_comment',
      title: 'Post a comment',
      description: 'A new comment on main or on a change request, optionally on a page (POST .../comments).',
      input: args({ ...SpaceParams.shape, ...OptionalChangeRequest }, CreateCommentBody.shape),
      readOnly: false,
      run: async (c, { spaceId, changeRequestId, ...b }) =>
        commentCommands.createComment(commandContext(c), { spaceId, changeRequestId, fields: b }),
    }),
    tool({
      name: 'reply_to_comment',
      title: 'Reply to a comment',
      description: 'A reply to a comment on main or on a change request (POST .../comments/{commentId}/replies).',
      input: args({ ...SpaceParams.shape, ...OptionalChangeRequest, commentId: IdSchema }, CreateCommentReplyBody.shape),
      readOnly: false,
      run: async (c, { spaceId, changeRequestId, commentId, ...b }) =>
        commentCommands.createReply(commandContext(c), { spaceId, changeRequestId, commentId, fields: b }),
    }),
  ],
};

/** The organization-wide filters have no meaning within one space. */
function withoutOrgFilters(q: z.output<typeof OrgChangeRequestListQuery>): z.output<typeof ChangeRequestListQuery> {
  const { space: _s, site: _t, styleguideRun: _r, finding: _f, ...rest } = q;
  return rest;
}

/**
 * Answers one request to `/v1/mcp`, which the REST front mounts behind the API's
 * authentication, rate limits and body limit, like every /v1 route.
 */
export async function answerOrganizationMcp(c: Ctx, endpoint: McpEndpoint<Ctx>) {
  const { log, config } = c.get('deps');
  // jsonBody has read and checked the body; the transport takes the parsed value.
  const parsedBody = c.req.method === 'POST' ? await c.req.json().catch(() => undefined) : undefined;
  return answerMcp(c, endpoint, c, { log, parsedBody, maxBodyBytes: config.maxBodyBytes, answers: organizationAnswers(c) });
}

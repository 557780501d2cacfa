import type { OpenAPIHono } from '@hono/zod-openapi';
import { IdSchema, ListQuerySchema } from '@quire/shared';
import { PageRevisionListSchema, RevisionPageQuery, RevisionPageSchema, RevisionStateSchema } from '@quire/shared/schemas/pageHistory';
import * as queries from '../../core/content/historyQueries';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import { apiRoute, json } from '../openapi';
import { SpaceParams } from '../params';

/**
 * A page's history, an extension beside the specification: the revisions of a space's
 * main content that changed a page, and the page as it was in any revision.
 */

const S = '/v1/spaces/{spaceId}';
const tags = ['Space content'];
const PageParams = SpaceParams.extend({ pageId: IdSchema });
const RevisionParams = SpaceParams.extend({ revisionId: IdSchema });
const RevisionPageParams = RevisionParams.extend({ pageId: IdSchema });

export const history = {
  listPageRevisions: apiRoute({
    method: 'get',
    path: `${S}/content/page/{pageId}/revisions`,
    tags,
    summary: 'Revisions that changed a page, newest first',
    description:
      'An extension beside the specification: every revision of the main content that added, edited or removed the page. A page removed since is still listed while it has history.',
    'x-quire-extension': true,
    request: { params: PageParams, query: ListQuerySchema },
    responses: { 200: json(PageRevisionListSchema) },
  }),
  getRevisionPage: apiRoute({
    method: 'get',
    path: `${S}/revisions/{revisionId}/page/{pageId}`,
    tags,
    summary: 'A page as it was in a revision',
    description:
      'An extension beside the specification. `format=body` gives the body in the content model’s own node JSON, which restores exactly.',
    'x-quire-extension': true,
    request: { params: RevisionPageParams, query: RevisionPageQuery },
    responses: { 200: json(RevisionPageSchema) },
  }),
  getRevisionState: apiRoute({
    method: 'get',
    path: `${S}/revisions/{revisionId}/state`,
    tags,
    summary: 'A revision of the main content as its Yjs state',
    description:
      'An extension beside the specification: the whole Yjs document of a main-content revision, for a client that draws a change request against the revision it started from (`revisionMergedAncestor`).',
    'x-quire-extension': true,
    request: { params: RevisionParams },
    responses: { 200: json(RevisionStateSchema) },
  }),
};

export function registerPageHistory(app: OpenAPIHono<AppEnv>) {
  app.openapi(history.listPageRevisions, async (c) =>
    c.json(await queries.listPageRevisions(commandContext(c), { ...c.req.valid('param'), page: c.req.valid('query') }), 200),
  );

  app.openapi(history.getRevisionPage, async (c) =>
    c.json(await queries.getRevisionPage(commandContext(c), { ...c.req.valid('param'), format: c.req.valid('query').format }), 200),
  );

  app.openapi(history.getRevisionState, async (c) => c.json(await queries.getRevisionState(commandContext(c), c.req.valid('param')), 200));
}

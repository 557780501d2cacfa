import type { OpenAPIHono } from '@hono/zod-openapi';
import { IdSchema, ListQuerySchema } from '@quire/shared';
import { PageRevisionListSchema, RevisionPageQuery, RevisionPageSchema, RevisionStateSchema } from '@quire/shared/schemas/pageHistory';
import { mainRevisionStateOf, pageRevisionsOf, revisionPageOf } from '../../core/content/history';
import { pagePaths } from '../../core/content/tree';
import type { AppEnv } from '../env';
import { requireSpace } from '../guards';
import { envelope } from '../../core/views/listing';
import { apiRoute, json } from '../openapi';
import { SpaceParams } from '../params';
import { appBase, presentPage } from '../../core/views/content';
import { iso } from '../../core/views/iso';
import { baseUrl } from '../urls';

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
  app.openapi(history.listPageRevisions, async (c) => {
    const p = c.req.valid('param');
    const { space } = await requireSpace(c, p.spaceId);
    const page = await pageRevisionsOf(c.get('deps').db, space, p.pageId, c.req.valid('query'));
    const base = `${baseUrl(c)}/v1/spaces/${space.id}/revisions`;
    return c.json(
      envelope(page, (r) => ({
        object: 'page-revision' as const,
        revision: r.revision_id,
        change: r.change,
        title: r.title,
        type: r.type,
        ...(r.created_by ? { createdBy: r.created_by } : {}),
        ...(r.type === 'restore' && r.parents[1] ? { restoredFrom: r.parents[1] } : {}),
        createdAt: iso(r.created_at) as string,
        pages: r.pages.map((t) => ({ id: t.pageId, title: t.title, change: t.change })),
        urls: { page: `${base}/${r.revision_id}/page/${p.pageId}` },
        permissions: { view: true },
      })),
      200,
    );
  });

  app.openapi(history.getRevisionPage, async (c) => {
    const p = c.req.valid('param');
    const format = c.req.valid('query').format ?? 'document';
    const { space } = await requireSpace(c, p.spaceId);
    const { head, content, entry, body, read } = await revisionPageOf(c.get('deps').db, space, p.revisionId, p.pageId, format);
    const shown = presentPage(
      { ...entry, path: pagePaths(content).get(entry.id) ?? entry.slug },
      appBase(baseUrl(c), space.id, head.change_request_id),
      false,
    );
    const page = format === 'body' ? shown : format === 'markdown' ? { ...shown, markdown: read as string } : { ...shown, document: read };
    const location = `${baseUrl(c)}/v1/spaces/${space.id}/revisions/${head.id}/page/${p.pageId}${format === 'document' ? '' : `?format=${format}`}`;
    return c.json(
      {
        object: 'revision-page' as const,
        revision: head.id,
        page,
        ...(body !== undefined ? { body } : {}),
        urls: { location },
        permissions: { view: true },
      },
      200,
    );
  });

  app.openapi(history.getRevisionState, async (c) => {
    const p = c.req.valid('param');
    const { space } = await requireSpace(c, p.spaceId);
    const { head, state } = await mainRevisionStateOf(c.get('deps').db, space, p.revisionId);
    return c.json(
      {
        object: 'revision-state' as const,
        revision: head.id,
        state: Buffer.from(state.buffer, state.byteOffset, state.byteLength).toString('base64'),
        urls: { location: `${baseUrl(c)}/v1/spaces/${space.id}/revisions/${head.id}/state` },
        permissions: { view: true },
      },
      200,
    );
  });
}

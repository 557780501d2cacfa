import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Role } from '@quire/shared';
import { bodyToGitbookDocument, markdownToBody } from '@quire/shared/content/index';
import type { PageQuery } from '@quire/shared/schemas/content';
import type { Context } from 'hono';
import type { z } from 'zod';
import { applyTemplateAs, importAs, spacePdfUrl, spaceRevisionId, uploadFileAs } from '../../core/content/branchOps';
import { crBranch } from '../../core/content/changeRequests';
import { ARCHIVE_TYPES, exportRevisionArchive } from '../../core/content/export';
import { readBody } from '../../core/content/read';
import { contentAtRevision } from '../../core/content/revisions';
import { downloadLinks, readRevision } from '../../core/content/downloadLinks';
import { pagePaths } from '../../core/content/tree';
import { registerContentCopyStep } from '../../core/content/spaceCopyStep';
import { computedSpecRef, renderSpecOperations } from '../../core/openapi';
import { linkContextOf } from '../../core/content/linkContext';
import { badRequest, notFound } from '@quire/shared/domainErrors';
import type { AppEnv } from '../env';
import { requireSpace } from '../guards';
import { requireChangeRequest } from '../guards';
import { presentOrg } from '../presenters/organization';
import { presentSpace } from '../presenters/space';
import { baseUrl, linkBase } from '../urls';
import { type LinkScope, backlinkItems, linkItems, linkStats } from './links';
import { memoryPage } from '../../core/content/memoryPage';
import { appBase, presentFiles, presentPage, presentPageTree, presentRevision } from '../presenters/content';
import { registerContentDownloads } from './downloads';
import * as r from './routes';

type Ctx = Context<AppEnv>;
interface BranchParams {
  spaceId: string;
  changeRequestId?: string;
}

/** The branch a content route reads or writes, checked for the caller, and its current revision. */
async function branchContext(c: Ctx, p: BranchParams, action: 'view' | 'edit' = 'view') {
  if (p.changeRequestId) {
    const found = await requireChangeRequest(c, p.spaceId, p.changeRequestId, action);
    return { ...found, branch: crBranch(found.cr), revisionId: found.cr.revision_id };
  }
  const found = await requireSpace(c, p.spaceId, action);
  const revisionId = await spaceRevisionId(c.get('deps').db, found.space);
  return { ...found, cr: undefined, branch: { spaceId: found.space.id }, revisionId };
}

async function linkScope(c: Ctx, ctx: Awaited<ReturnType<typeof branchContext>>): Promise<LinkScope> {
  const { db } = c.get('deps');
  const base = baseUrl(c);
  const { org, counts, content, mainBase } = await linkContextOf(db, ctx.space, ctx.revisionId, ctx.cr);
  return {
    db,
    links: linkBase(c),
    revisionId: ctx.revisionId,
    content,
    organization: presentOrg(org, ctx.access, base),
    space: presentSpace(ctx.space, ctx.access, base, counts as never),
    mainBase,
  };
}

const fileKey = (f: { id: string; name: string }) => `${f.name}\u0000${f.id}`;

/** The reads both branches answer alike; `routes` are the space's or the change request's. */
function registerReads(app: OpenAPIHono<AppEnv>, routes: typeof r.space | typeof r.changeRequest) {
  app.openapi(routes.getContent, async (c) => {
    const { db } = c.get('deps');
    const ctx = await branchContext(c, c.req.valid('param'));
    const read = await readRevision(db, linkBase(c), ctx.revisionId);
    if (!read) throw notFound('revision');
    return c.json(presentRevision(baseUrl(c), read, { metadata: c.req.valid('query').metadata !== false }), 200);
  });

  app.openapi(routes.listPages, async (c) => c.json(await pageTree(c, c.req.valid('param'), c.req.valid('query')), 200));

  app.openapi(routes.listFiles, async (c) => {
    const { db } = c.get('deps');
    const ctx = await branchContext(c, c.req.valid('param'));
    const content = await contentAtRevision(db, ctx.revisionId);
    const q = c.req.valid('query');
    const page = memoryPage(Object.values(content.files), fileKey, q);
    const items = presentFiles(page.rows, await downloadLinks(db, linkBase(c), ctx.space.id, page.rows), q.metadata !== false);
    return c.json({ items, count: page.count, ...(page.next ? { next: { page: page.next } } : {}) }, 200);
  });

  app.openapi(routes.getFile, async (c) => {
    const { db } = c.get('deps');
    const p = c.req.valid('param');
    const ctx = await branchContext(c, p);
    const file = (await contentAtRevision(db, ctx.revisionId)).files[p.fileId];
    if (!file) throw notFound('file');
    const [shown] = presentFiles(
      [file],
      await downloadLinks(db, linkBase(c), ctx.space.id, [file]),
      c.req.valid('query').metadata !== false,
    );
    return c.json(shown as NonNullable<typeof shown>, 200);
  });

  app.openapi(routes.fileBacklinks, async (c) => {
    const p = c.req.valid('param');
    const ctx = await branchContext(c, p);
    const scope = await linkScope(c, ctx);
    if (!scope.content.files[p.fileId]) throw notFound('file');
    const page = memoryPage(backlinkItems(scope, { fileId: p.fileId }), (i) => i.key, c.req.valid('query'));
    return c.json(
      { items: page.rows.map((i) => i.item) as never[], count: page.count, ...(page.next ? { next: { page: page.next } } : {}) },
      200,
    );
  });

  app.openapi(routes.getPage, async (c) => c.json(await readPage(c, c.req.valid('param'), c.req.valid('query')), 200));

  app.openapi(routes.pageLinks, async (c) => {
    const p = c.req.valid('param');
    const ctx = await branchContext(c, p);
    const scope = await linkScope(c, ctx);
    if (!scope.content.pages[p.pageId]) throw notFound('page');
    const all = await linkItems(scope, [p.pageId]);
    const page = memoryPage(all, (i) => i.key, c.req.valid('query'));
    return c.json(
      {
        items: page.rows.map((i) => i.item) as never[],
        count: page.count,
        ...(page.next ? { next: { page: page.next } } : {}),
        stats: await linkStats(scope, all),
      },
      200,
    );
  });

  app.openapi(routes.exportContent, async (c) => {
    const { db } = c.get('deps');
    const ctx = await branchContext(c, c.req.valid('param'));
    const { archive } = c.req.valid('query');
    const bytes = await exportRevisionArchive(db, ctx.space.id, ctx.revisionId, archive);
    const name = `${ctx.cr ? `${ctx.space.id}-cr-${ctx.cr.number}` : ctx.space.id}.${archive}`;
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': ARCHIVE_TYPES[archive],
      'content-length': String(bytes.byteLength),
      'content-disposition': `attachment; filename="${name}"`,
      'x-content-type-options': 'nosniff',
    }) as never;
  });

  app.openapi(routes.uploadFile, async (c) => {
    const p = c.req.valid('param');
    const ctx = await branchContext(c, p, 'edit');
    const { name } = c.req.valid('query');
    const contentType = (c.req.valid('header')['content-type'].split(';')[0] ?? '').trim().toLowerCase();
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const stored = await uploadFileAs(c.get('deps').db, linkBase(c), ctx, { id: p.fileId, name, contentType, bytes });
    return c.json({ id: p.fileId, name, contentType, size: stored.size, downloadURL: stored.downloadURL }, stored.created ? 201 : 200);
  });

  app.openapi(routes.importContent, async (c) => {
    const ctx = await branchContext(c, c.req.valid('param'), 'edit');
    return c.json(await importAs(c.get('deps'), ctx, c.req.valid('json'), c.get('caller').user.id), 201);
  });
}

/** The page tree of main or of a change request (`GET .../content/pages`). */
export async function pageTree(c: Ctx, p: BranchParams, q: { metadata?: boolean }) {
  const ctx = await branchContext(c, p);
  const content = await contentAtRevision(c.get('deps').db, ctx.revisionId);
  const app = appBase(baseUrl(c), ctx.space.id, ctx.cr?.id);
  return { pages: presentPageTree(content, app, q.metadata !== false) };
}

/** A page of main or of a change request, with its body as a document or markdown (`GET .../content/page/{pageId}`). */
export async function readPage(c: Ctx, p: BranchParams & { pageId: string }, q: z.output<typeof PageQuery>) {
  const { db } = c.get('deps');
  const ctx = await branchContext(c, p);
  const content = await contentAtRevision(db, ctx.revisionId);
  const entry = content.pages[p.pageId];
  if (!entry) throw notFound('page');
  const format = q.format ?? 'document';
  const evaluated = q.evaluated === 'true' || q.evaluated === 'deterministic-only';
  const refs = q['format.markdown.refs'] === 'relative' ? 'relative' : 'stable';
  let body = await readBody(db, ctx.revisionId, p.pageId, { format, evaluated, refs });
  const spec = computedSpecRef(entry.computed);
  if (spec && q.computed !== false) {
    const rendered = await renderSpecOperations(db, ctx.space.org_id, spec);
    if (rendered) body = format === 'markdown' ? rendered.markdown : bodyToGitbookDocument(markdownToBody(rendered.markdown).doc);
  }
  const app = appBase(baseUrl(c), ctx.space.id, ctx.cr?.id);
  const shown = presentPage({ ...entry, path: pagePaths(content).get(entry.id) ?? entry.slug }, app, false, q.metadata !== false);
  return format === 'markdown' ? { ...shown, markdown: body as string } : { ...shown, document: body };
}

export function registerContent(app: OpenAPIHono<AppEnv>) {
  registerContentCopyStep();
  registerReads(app, r.space);
  registerReads(app, r.changeRequest);
  registerContentDownloads(app);

  app.openapi(r.space.pageBacklinks, async (c) => {
    const p = c.req.valid('param');
    const ctx = await branchContext(c, p);
    const scope = await linkScope(c, ctx);
    if (!scope.content.pages[p.pageId]) throw notFound('page');
    const page = memoryPage(backlinkItems(scope, { pageId: p.pageId }), (i) => i.key, c.req.valid('query'));
    return c.json(
      { items: page.rows.map((i) => i.item) as never[], count: page.count, ...(page.next ? { next: { page: page.next } } : {}) },
      200,
    );
  });

  app.openapi(r.space.spaceLinks, async (c) => {
    const ctx = await branchContext(c, c.req.valid('param'));
    const scope = await linkScope(c, ctx);
    const all = await linkItems(scope, Object.keys(scope.content.pages));
    const page = memoryPage(all, (i) => i.key, c.req.valid('query'));
    return c.json(
      {
        items: page.rows.map((i) => i.item) as never[],
        count: page.count,
        ...(page.next ? { next: { page: page.next } } : {}),
        stats: await linkStats(scope, all),
      },
      200,
    );
  });

  app.openapi(r.space.spacePdf, async (c) => {
    const { spaceId } = c.req.valid('param');
    const q = c.req.valid('query');
    if (q.only && !q.page) throw badRequest('Missing query parameter field "page": required when "only" is true.');
    const { space } = await requireSpace(c, spaceId);
    return c.json({ url: await spacePdfUrl(c.get('deps').db, linkBase(c), space, q) }, 200);
  });

  app.openapi(r.space.applyTemplate, async (c) => {
    const b = c.req.valid('json');
    // The public client sends `changeRequestId` to fill a change request instead of main.
    const ctx = await branchContext(c, { spaceId: c.req.valid('param').spaceId, changeRequestId: b.changeRequestId }, 'edit');
    await applyTemplateAs(c.get('deps').db, ctx, b.id, b.params?.contentRefs ?? {}, c.get('caller').user.id);
    return c.body(null, 204);
  });
}

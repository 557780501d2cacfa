import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { applyTemplateAs, importAs, spacePdfUrl, uploadFileAs } from '../../core/content/branchOps';
import { ARCHIVE_TYPES, exportRevisionArchive } from '../../core/content/export';
import { contentAtRevision } from '../../core/content/revisions';
import { downloadLinks, readRevision } from '../../core/content/downloadLinks';
import { registerContentCopyStep } from '../../core/content/spaceCopyStep';
import { linkContextOf } from '../../core/content/linkContext';
import { badRequest, notFound } from '@quire/shared/domainErrors';
import type { AppEnv } from '../env';
import { requireSpace } from '../guards';
import { presentOrg } from '../../core/views/organization';
import { presentSpace } from '../../core/views/space';
import { baseUrl, linkBase } from '../urls';
import { type LinkScope, backlinkItems, linkItems, linkStats } from './links';
import { memoryPage } from '../../core/content/memoryPage';
import { presentFiles, presentRevision } from '../../core/views/content';
import { registerContentDownloads } from './downloads';
import * as r from './routes';
import { type BranchRef, branchSeenBy, pageTree, readPage } from '../../core/content/queries';
import { commandContext } from '../../web/commandContext';

type Ctx = Context<AppEnv>;
/** The branch a content route reads or writes, checked for the caller, and its current revision. */
function branchContext(c: Ctx, p: BranchRef, action: 'view' | 'edit' = 'view') {
  return branchSeenBy(commandContext(c), p, action);
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

  app.openapi(routes.listPages, async (c) =>
    c.json(await pageTree(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('query') }), 200),
  );

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

  app.openapi(routes.getPage, async (c) =>
    c.json(await readPage(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('query') }), 200),
  );

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

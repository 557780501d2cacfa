import type { OpenAPIHono } from '@hono/zod-openapi';
import * as reads from '../../core/content/branchQueries';
import * as commands from '../../core/content/commands';
import { pageTree, readPage } from '../../core/content/queries';
import { registerContentCopyStep } from '../../core/content/spaceCopyStep';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import { linkBase } from '../urls';
import { registerContentDownloads } from './downloads';
import * as r from './routes';

/** The reads both branches answer alike; `routes` are the space's or the change request's. */
function registerReads(app: OpenAPIHono<AppEnv>, routes: typeof r.space | typeof r.changeRequest) {
  app.openapi(routes.getContent, async (c) =>
    c.json(
      await reads.getContent(commandContext(c), { ...c.req.valid('param'), links: linkBase(c), metadata: c.req.valid('query').metadata }),
      200,
    ),
  );

  app.openapi(routes.listPages, async (c) =>
    c.json(await pageTree(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('query') }), 200),
  );

  app.openapi(routes.listFiles, async (c) =>
    c.json(await reads.listFiles(commandContext(c), { ...c.req.valid('param'), links: linkBase(c), query: c.req.valid('query') }), 200),
  );

  app.openapi(routes.getFile, async (c) =>
    c.json(
      await reads.getFile(commandContext(c), { ...c.req.valid('param'), links: linkBase(c), metadata: c.req.valid('query').metadata }),
      200,
    ),
  );

  app.openapi(routes.fileBacklinks, async (c) =>
    c.json(await reads.fileBacklinks(commandContext(c), { ...c.req.valid('param'), links: linkBase(c), page: c.req.valid('query') }), 200),
  );

  app.openapi(routes.getPage, async (c) =>
    c.json(await readPage(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('query') }), 200),
  );

  app.openapi(routes.pageLinks, async (c) =>
    c.json(await reads.listLinks(commandContext(c), { ...c.req.valid('param'), links: linkBase(c), page: c.req.valid('query') }), 200),
  );

  app.openapi(routes.exportContent, async (c) => {
    const { bytes, name, contentType } = await reads.exportContent(commandContext(c), {
      ...c.req.valid('param'),
      archive: c.req.valid('query').archive,
    });
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': contentType,
      'content-length': String(bytes.byteLength),
      'content-disposition': `attachment; filename="${name}"`,
      'x-content-type-options': 'nosniff',
    }) as never;
  });

  app.openapi(routes.uploadFile, async (c) => {
    const contentType = (c.req.valid('header')['content-type'].split(';')[0] ?? '').trim().toLowerCase();
    const bytes = async () => new Uint8Array(await c.req.arrayBuffer());
    const input = { ...c.req.valid('param'), links: linkBase(c), name: c.req.valid('query').name, contentType, bytes };
    const { file, created } = await commands.uploadFile(commandContext(c), input);
    return c.json(file, created ? 201 : 200);
  });

  app.openapi(routes.importContent, async (c) =>
    c.json(await commands.importContent(commandContext(c), { ...c.req.valid('param'), request: c.req.valid('json') }), 201),
  );
}

/** The page tree of main or of a change request (`GET .../content/pages`). */
export function registerContent(app: OpenAPIHono<AppEnv>) {
  registerContentCopyStep();
  registerReads(app, r.space);
  registerReads(app, r.changeRequest);
  registerContentDownloads(app);

  app.openapi(r.space.pageBacklinks, async (c) =>
    c.json(await reads.pageBacklinks(commandContext(c), { ...c.req.valid('param'), links: linkBase(c), page: c.req.valid('query') }), 200),
  );

  app.openapi(r.space.spaceLinks, async (c) =>
    c.json(await reads.listLinks(commandContext(c), { ...c.req.valid('param'), links: linkBase(c), page: c.req.valid('query') }), 200),
  );

  app.openapi(r.space.spacePdf, async (c) =>
    c.json(await reads.spacePdf(commandContext(c), { ...c.req.valid('param'), links: linkBase(c), query: c.req.valid('query') }), 200),
  );

  app.openapi(r.space.applyTemplate, async (c) => {
    const b = c.req.valid('json');
    // The public client sends `changeRequestId` to fill a change request instead of main.
    const input = { spaceId: c.req.valid('param').spaceId, changeRequestId: b.changeRequestId, templateId: b.id };
    await commands.applyTemplate(commandContext(c), { ...input, contentRefs: b.params?.contentRefs ?? {} });
    return c.body(null, 204);
  });
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../core/changeRequests/commands';
import * as queries from '../../core/changeRequests/queries';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import { linkBase } from '../urls';
import * as r from './routes';

export function registerChangeRequests(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listChangeRequests, async (c) =>
    c.json(await queries.listSpaceChangeRequests(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('query') }), 200),
  );

  app.openapi(r.createChangeRequest, async (c) =>
    c.json(await commands.createChangeRequest(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );

  app.openapi(r.getChangeRequest, async (c) => c.json(await queries.getChangeRequest(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.updateChangeRequest, async (c) =>
    c.json(await commands.updateChangeRequest(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.mergeChangeRequest, async (c) => c.json(await commands.mergeChangeRequest(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.updateChangeRequestFromMain, async (c) =>
    c.json(await commands.updateChangeRequestFromMain(commandContext(c), c.req.valid('param')), 200),
  );

  app.openapi(r.changeRequestPdf, async (c) =>
    c.json(
      await queries.changeRequestPdf(commandContext(c), { ...c.req.valid('param'), links: linkBase(c), query: c.req.valid('query') }),
      200,
    ),
  );

  app.openapi(r.listReviews, async (c) =>
    c.json(await queries.listReviews(commandContext(c), { ...c.req.valid('param'), query: c.req.valid('query') }), 200),
  );

  app.openapi(r.createReview, async (c) => {
    const shown = await commands.reviewChangeRequest(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('json') });
    c.header('Location', shown.urls.location);
    return c.json(shown, 201);
  });

  app.openapi(r.getReview, async (c) =>
    c.json(await queries.getReview(commandContext(c), { ...c.req.valid('param'), format: c.req.valid('query').format }), 200),
  );

  app.openapi(r.listRequestedReviewers, async (c) =>
    c.json(await queries.listRequestedReviewers(commandContext(c), { ...c.req.valid('param'), page: c.req.valid('query') }), 200),
  );

  app.openapi(r.requestReviewers, async (c) =>
    c.json(await commands.requestReviewers(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );

  app.openapi(r.getRequestedReviewer, async (c) =>
    c.json(await queries.getRequestedReviewer(commandContext(c), c.req.valid('param')), 200),
  );

  app.openapi(r.removeRequestedReviewer, async (c) => {
    await commands.removeRequestedReviewer(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.listOrgChangeRequests, async (c) =>
    c.json(await queries.listOrganizationChangeRequests(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('query') }), 200),
  );
}

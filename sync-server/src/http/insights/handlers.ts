import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { recordEvents } from '../../core/insights/commands';
import { callerInsights, type InsightsContext } from '../../core/insights/context';
import { commandContext } from '../../web/commandContext';
import { aggregate, visitorSegments } from '../../core/insights/queries';
import { memoryPage } from '../../core/content/memoryPage';
import type { AppEnv } from '../env';
import { envelope } from '../../core/views/listing';
import { clientAddress } from '../middleware/rateLimit';
import * as r from './routes';

/** The caller's context for insights commands. */
function insightsContext(c: Context<AppEnv>): InsightsContext {
  return callerInsights(commandContext(c));
}

/** Site insights: events in, aggregations and visitor segments out. */
export function registerInsights(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.trackEvents, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { events } = c.req.valid('json');
    await recordEvents(insightsContext(c), { organizationId, siteId, events, senderAddress: clientAddress(c) });
    return c.body(null, 204);
  });

  app.openapi(r.aggregateEvents, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    return c.json(await aggregate(insightsContext(c), { organizationId, siteId, query: c.req.valid('json') }), 200);
  });

  app.openapi(r.listVisitorSegments, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const segments = await visitorSegments(insightsContext(c), { organizationId, siteId });
    // Keyed by position: segments follow the schema's order of claims.
    const page = memoryPage(
      segments.map((segment, i) => ({ segment, key: String(i).padStart(6, '0') })),
      (x) => x.key,
      c.req.valid('query'),
    );
    return c.json(
      envelope(page, (x) => x.segment),
      200,
    );
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer, type TestUser } from '../../testing/harness';

/**
 * The insights operations over REST: events in (checked whole, stored whole or not at all),
 * aggregations out, and who may do either.
 */

let t: TestServer;
let orgId: string;
let admin: TestUser;
let siteId: string;
let spaceId: string;

const UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

beforeAll(async () => {
  t = await TestServer.start();
  const org = await t.org();
  orgId = org.orgId;
  admin = org.admin;
  spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Guides' })).body.id;
  siteId = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Docs', spaces: [spaceId] })).body.id;
});
afterAll(async () => t?.close());

const events = (s = siteId) => `/v1/orgs/${orgId}/sites/${s}/insights/events`;
const aggregate = (s = siteId) => `/v1/orgs/${orgId}/sites/${s}/insights/events/aggregate`;

/** An event as the public client sends it. */
function pageView(path: string, opts: { page?: string | null; ip?: string; ua?: string; timestamp?: string; type?: string } = {}) {
  return {
    type: opts.type ?? 'page_view',
    session: {
      visitorId: 'v-from-client',
      sessionId: 's-from-client',
      cookies: {},
      ip: opts.ip ?? '198.51.100.7',
      userAgent: opts.ua ?? UA,
      language: 'en-GB',
      referrer: 'https://search.example/results?q=secret',
    },
    location: {
      url: `https://docs.acme.test${path}?utm_source=newsletter&token=abc`,
      siteSection: null,
      siteSpace: null,
      siteShareKey: null,
      space: spaceId,
      revision: null,
      page: opts.page === undefined ? 'page-1' : opts.page,
    },
    ...(opts.timestamp ? { timestamp: opts.timestamp } : {}),
  };
}

async function storedCount(): Promise<number> {
  const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM insights_events WHERE site_id = $1', [siteId]);
  return row?.n ?? 0;
}

describe('recording events', () => {
  it('refuses a batch with one bad event, naming its field, and stores none of it', async () => {
    const before = await storedCount();
    const { location: _missing, ...noLocation } = pageView('/b');
    const res = await t.post(events(), admin.token, { events: [pageView('/a'), pageView('/a'), pageView('/a'), noLocation] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message: 'Missing body field "events.3.location".' } });
    expect(await storedCount()).toBe(before);
  });

  it('refuses an event without its session, and one of an unknown type', async () => {
    const { session: _missing, ...noSession } = pageView('/b');
    expect((await t.post(events(), admin.token, { events: [noSession] })).body.error.message).toBe(
      'Missing body field "events.0.session".',
    );
    const res = await t.post(events(), admin.token, { events: [pageView('/a', { type: 'page_explode' })] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Invalid body field "events\.0\.type"/);
  });

  it('refuses a timestamp more than five minutes ahead, and stores nothing of the batch', async () => {
    const before = await storedCount();
    const ahead = new Date(Date.now() + 6 * 60 * 1000).toISOString();
    const res = await t.post(events(), admin.token, { events: [pageView('/a'), pageView('/a', { timestamp: ahead })] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid body field "events.1.timestamp": must not be more than 5 minutes in the future.');
    expect(await storedCount()).toBe(before);
    const near = new Date(Date.now() + 60 * 1000).toISOString();
    expect((await t.post(events(), admin.token, { events: [pageView('/a', { timestamp: near })] })).status).toBe(204);
    expect(await storedCount()).toBe(before + 1);
  });

  it('keeps neither the address, the user agent, the client identifiers nor the query of a URL', async () => {
    const res = await t.post(events(), admin.token, { events: [pageView('/privacy-check', { ip: '203.0.113.99' })] });
    expect(res.status).toBe(204);
    const rows = await t.db.query('SELECT * FROM insights_events WHERE site_id = $1', [siteId]);
    const dump = JSON.stringify(rows);
    for (const secret of ['203.0.113.99', UA, 'v-from-client', 's-from-client', 'token=abc', 'q=secret'])
      expect(dump).not.toContain(secret);
    const row = rows.find((r) => r.url_path === '/privacy-check') as Record<string, unknown>;
    expect(row).toMatchObject({
      url: 'https://docs.acme.test/privacy-check',
      browser: 'chrome',
      os: 'macos',
      device: 'desktop',
      bot: '',
      language: 'en-GB',
      referrer: 'https://search.example/results',
      referrer_domain: 'search.example',
      utm_source: 'newsletter',
    });
  });

  it('accepts every event of the public client, the ones this server has no screen for included', async () => {
    const base = pageView('/all');
    const all = [
      { ...base, type: 'page_markdown_request', markdownSource: 'page-action' },
      { ...base, type: 'search_open' },
      { ...base, type: 'search_type_query', query: 'install' },
      { ...base, type: 'search_open_result', query: 'install', result: { spaceId, pageId: 'page-1' } },
      { ...base, type: 'page_post_feedback', feedback: { rating: 'good' } },
      { ...base, type: 'page_post_feedback_comment', feedback: { rating: 'bad', comment: 'Missing the Linux steps' } },
      { ...base, type: 'agent_feedback' },
      { ...base, type: 'ask_question', query: 'how?', goal: 'install' },
      { ...base, type: 'ask_view' },
      { ...base, type: 'ask_rate_response', query: 'how?', rating: -1, responseId: 'r1' },
      { ...base, type: 'link_click', link: { target: { kind: 'url', url: 'https://github.com/acme' }, position: 'content' } },
      { ...base, type: 'api_client_open', operation: { path: '/pets', method: 'get' } },
      { ...base, type: 'api_client_request', operation: { path: '/pets', method: 'post' } },
      { ...base, type: 'trademark_click', placement: 'footer' },
      { ...base, type: 'ad_click', ad: { domain: 'ads.example', zoneId: 'z1', placement: 'aside' } },
      { ...base, type: 'ad_display', ad: { domain: 'ads.example', zoneId: 'z1', placement: 'aside' } },
      { ...base, type: 'llms_request', llmsVariant: 'full' },
      { ...base, type: 'mcp_request' },
      { ...base, type: 'rss_request' },
    ];
    expect((await t.post(events(), admin.token, { events: all })).status).toBe(204);
    const rows = await t.db.query<Record<string, unknown>>("SELECT * FROM insights_events WHERE site_id = $1 AND url_path = '/all'", [
      siteId,
    ]);
    expect(rows.map((r) => r.type).sort()).toEqual(all.map((e) => e.type).sort());
    const of = (type: string) => rows.find((r) => r.type === type) as Record<string, unknown>;
    expect(of('link_click')).toMatchObject({ link_kind: 'url', link_domain: 'github.com', link_position: 'content' });
    expect(of('page_post_feedback_comment')).toMatchObject({ feedback_rating: 'bad', feedback_comment: 'Missing the Linux steps' });
    expect(of('api_client_request')).toMatchObject({ api_path: '/pets', api_method: 'POST' });
    expect(of('ad_click')).toMatchObject({ ad_domain: 'ads.example', data: { zoneId: 'z1' } });
    expect(of('ask_question')).toMatchObject({ data: { query: 'how?', goal: 'install' } });
  });
});

describe('aggregations', () => {
  let site2: string;
  beforeAll(async () => {
    site2 = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Counted', spaces: [spaceId] })).body.id;
    const at = (minutes: number) => new Date(Date.now() - minutes * 60 * 1000).toISOString();
    const res = await t.post(events(site2), admin.token, {
      events: [
        // One visitor, two sessions (an hour apart) on /install.
        pageView('/install', { ip: '192.0.2.1', timestamp: at(120) }),
        pageView('/install', { ip: '192.0.2.1', timestamp: at(110) }),
        pageView('/install', { ip: '192.0.2.1', timestamp: at(10) }),
        // Another visitor on /install and on /faq.
        pageView('/install', { ip: '192.0.2.2', timestamp: at(5) }),
        pageView('/faq', { ip: '192.0.2.2', timestamp: at(4) }),
        // Two visits to a URL that is no page.
        pageView('/old-link', { ip: '192.0.2.3', page: null, timestamp: at(3) }),
        pageView('/old-link', { ip: '192.0.2.4', page: null, timestamp: at(2) }),
      ],
    });
    expect(res.status).toBe(204);
  });

  it('groups by URL path with events, sessions and visitors counted', async () => {
    const res = await t.post(aggregate(site2), admin.token, {
      select: [{ column: 'urlPath' }, { column: 'eventsCount' }, { column: 'sessionsCount' }, { column: 'visitorsCount' }],
      where: [{ column: 'eventType', values: ['page_view'] }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      range: 'last24Hours',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      columns: [
        { column: 'urlPath', values: ['/install', '/old-link', '/faq'] },
        { column: 'eventsCount', values: [4, 2, 1] },
        { column: 'sessionsCount', values: [3, 2, 1] },
        { column: 'visitorsCount', values: [2, 2, 1] },
      ],
    });
  });

  it('finds 404s: page views whose page is null', async () => {
    const res = await t.post(aggregate(site2), admin.token, {
      groupBy: [{ column: 'urlPath' }],
      where: [
        { column: 'eventType', values: ['page_view'] },
        { column: 'page', values: [null] },
      ],
      range: 'last7Days',
    });
    expect(res.body).toEqual({
      columns: [
        { column: 'urlPath', values: ['/old-link'] },
        { column: 'eventsCount', values: [2] },
      ],
    });
    const pages = await t.post(aggregate(site2), admin.token, {
      select: [{ column: 'page' }, { column: 'eventsCount' }],
      where: [{ column: 'page', operator: 'notIn', values: [null] }],
      range: 'last7Days',
    });
    expect(pages.body.columns).toEqual([
      { column: 'page', values: [{ page: 'page-1', space: spaceId }] },
      { column: 'eventsCount', values: [5] },
    ]);
  });

  it('counts over everything without a group, and filters counts', async () => {
    const all = await t.post(aggregate(site2), admin.token, { select: [{ column: 'visitorsCount' }], range: 'last30Days' });
    expect(all.body).toEqual({ columns: [{ column: 'visitorsCount', values: [4] }] });
    const busy = await t.post(aggregate(site2), admin.token, {
      groupBy: [{ column: 'urlPath' }],
      where: [{ column: 'eventsCount', operator: 'greaterThanOrEqual', values: [2] }],
      order: { by: { column: 'urlPath' }, direction: 'asc' },
      range: 'last30Days',
    });
    expect(busy.body.columns[0]).toEqual({ column: 'urlPath', values: ['/install', '/old-link'] });
  });

  it('groups by time, in UTC buckets of the interval asked', async () => {
    const res = await t.post(aggregate(site2), admin.token, {
      groupBy: [{ column: 'datetime', interval: 'day' }],
      range: { from: new Date(Date.now() - 3 * 86400_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(res.status).toBe(200);
    const [days, counts] = res.body.columns;
    expect(days.values.every((d: string) => /^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/.test(d))).toBe(true);
    expect(counts.values.reduce((a: number, b: number) => a + b, 0)).toBe(7);
  });

  it('answers nothing outside the range', async () => {
    const res = await t.post(aggregate(site2), admin.token, {
      select: [{ column: 'eventsCount' }],
      range: { from: '2020-01-01T00:00:00Z', to: '2020-02-01T00:00:00Z' },
    });
    expect(res.body).toEqual({ columns: [{ column: 'eventsCount', values: [0] }] });
  });

  it('refuses what cannot be asked, naming the field', async () => {
    const ask = async (body: unknown) => (await t.post(aggregate(site2), admin.token, body)).body.error?.message;
    expect(await ask({ range: 'last7Days', limit: 1001 })).toBe('Invalid body field "limit": must be at most 1000.');
    expect(await ask({ range: 'last7Days', limit: 0 })).toBe('Invalid body field "limit": must be at least 1.');
    const ranges = 'Invalid body field "range": must be lastYear, last3Months, last30Days, last7Days, last24Hours or {from, to}.';
    expect(await ask({ range: 'lastCentury' })).toBe(ranges);
    expect(await ask({})).toBe(ranges);
    expect(await ask({ range: 'last7Days', groupBy: [{ column: 'urlPath; DROP TABLE sites' }] })).toMatch(
      /^Invalid body field "groupBy\.0\.column"/,
    );
    expect(await ask({ range: 'last7Days', groupBy: [{ column: 'eventsCount' }] })).toBe(
      'Invalid body field "groupBy.0.column": eventsCount is counted over each group, not grouped by.',
    );
    expect(await ask({ range: 'last7Days', order: { by: { column: 'url' }, direction: 'asc' } })).toBe(
      'Invalid body field "order.by": must be a count or one of the columns rows are grouped by.',
    );
    expect(await ask({ range: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } })).toBe(
      'Invalid body field "range.to": must be after range.from.',
    );
    expect(await ask({ range: 'last7Days', where: [{ column: 'eventsCount', operator: 'greaterThan', values: [1, 2] }] })).toBe(
      'Invalid body field "where.0.values": greaterThan compares with exactly one value.',
    );
    expect(await ask({ range: 'last7Days', select: [{ column: 'visitorGeoPoint' }] })).toBe(
      'Invalid body field "select.0.column": visitorGeoPoint is not recorded by this server (no address is kept).',
    );
    expect(await ask({ range: 'last7Days', where: [{ column: 'eventType', values: ['nope'] }] })).toMatch(
      /^Invalid body field "where\.0\.values\.0"/,
    );
  });

  it('reads a claim by name as a parameter, whatever the name holds', async () => {
    const res = await t.post(aggregate(site2), admin.token, {
      select: [{ column: 'visitorClaim', claim: "x') OR 1=1 --" }, { column: 'eventsCount' }],
      range: 'last7Days',
    });
    expect(res.status).toBe(200);
    expect(res.body.columns).toEqual([
      { column: 'visitorClaim', claim: "x') OR 1=1 --", values: [null] },
      { column: 'eventsCount', values: [7] },
    ]);
  });
});

describe('who may', () => {
  const cases: { who: string; role: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | null | 'outsider'; status: number }[] = [
    { who: 'an organization admin', role: 'admin', status: 200 },
    { who: 'a creator', role: 'create', status: 200 },
    { who: 'a reviewer', role: 'review', status: 200 },
    { who: 'an editor', role: 'edit', status: 200 },
    { who: 'a commenter', role: 'comment', status: 403 },
    { who: 'a reader', role: 'read', status: 403 },
    { who: 'a guest', role: null, status: 403 },
    { who: 'a caller of another organization', role: 'outsider', status: 404 },
  ];
  const users = new Map<string, TestUser>();
  beforeAll(async () => {
    for (const c of cases) users.set(c.who, c.role === 'outsider' ? (await t.org()).admin : await t.member(orgId, c.role));
  });

  it.each(cases)('$who: read and write answer $status', async ({ who, status }) => {
    const token = (users.get(who) as TestUser).token;
    const read = await t.post(aggregate(), token, { range: 'last7Days' });
    expect(read.status).toBe(status);
    const write = await t.post(events(), token, { events: [pageView('/who')] });
    expect(write.status).toBe(status === 200 ? 204 : status);
    const segments = await t.get(`/v1/orgs/${orgId}/sites/${siteId}/insights/visitor-segments`, token);
    expect(segments.status).toBe(status);
    if (status === 403) expect(read.body.error.message).toBe('Site insights need the edit role in the organization.');
  });

  it('an unknown site is 404 for a member who may read insights', async () => {
    expect((await t.post(aggregate('no-such-site-000000000'), admin.token, { range: 'last7Days' })).status).toBe(404);
    expect((await t.post(events('no-such-site-000000000'), admin.token, { events: [pageView('/x')] })).status).toBe(404);
  });
});

describe('the API document', () => {
  it('lists the three insights operations', async () => {
    const doc = (await t.get('/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const base = '/v1/orgs/{organizationId}/sites/{siteId}/insights';
    expect(Object.keys(doc.paths[`${base}/events`] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths[`${base}/events/aggregate`] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths[`${base}/visitor-segments`] ?? {})).toEqual(['get']);
  });
});

describe('visitor segments', () => {
  it('lists none for a site without a visitor schema', async () => {
    const res = await t.get(`/v1/orgs/${orgId}/sites/${siteId}/insights/visitor-segments`, admin.token);
    expect(res.body).toEqual({ items: [], count: 0 });
  });

  it('lists one segment per boolean claim of the schema, counting visitors who held it', async () => {
    const site = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Adaptive', spaces: [spaceId] })).body.id;
    const schema = {
      type: 'object',
      properties: {
        isBetaUser: { type: 'boolean', description: 'Beta testers' },
        plan: { type: 'string' },
        unsigned: { type: 'object', properties: { fromNewsletter: { type: 'boolean' } } },
      },
    };
    expect((await t.put(`/v1/orgs/${orgId}/sites/${site}/adaptive-schema`, admin.token, { jsonSchema: schema })).status).toBe(200);
    const withClaims = (ip: string, claims: Record<string, unknown>) => {
      const e = pageView('/beta', { ip });
      return { ...e, session: { ...e.session, visitorAuthClaims: claims } };
    };
    const res = await t.post(events(site), admin.token, {
      events: [
        withClaims('192.0.2.10', { isBetaUser: true, plan: 'pro', email: 'ada@example.com' }),
        withClaims('192.0.2.10', { isBetaUser: true, plan: 'pro', email: 'ada@example.com' }),
        withClaims('192.0.2.11', { isBetaUser: false, unsigned: { fromNewsletter: true } }),
      ],
    });
    expect(res.status).toBe(204);
    const dump = JSON.stringify(await t.db.query('SELECT * FROM insights_events WHERE site_id = $1', [site]));
    expect(dump).not.toContain('ada@example.com');
    expect(dump).not.toContain('plan');
    const segments = await t.get(`/v1/orgs/${orgId}/sites/${site}/insights/visitor-segments`, admin.token);
    expect(segments.body).toEqual({
      items: [
        { title: 'Beta testers', claims: { isBetaUser: true }, events: 2, visitors: 1, sessions: 1 },
        { title: 'unsigned.fromNewsletter', claims: { unsigned: { fromNewsletter: true } }, events: 1, visitors: 1, sessions: 1 },
      ],
      count: 2,
    });
  });
});

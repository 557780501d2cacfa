/**
 * Integrations benchmark.
 *
 * MCP: page reads a second through the organization's MCP endpoint (`tools/call read_page`
 * on `/v1/mcp`) next to `/v1` markdown reads of the same page
 * (`GET /v1/spaces/{id}/content/page/{pageId}?format=markdown`), same server, same run,
 * same load generator (autocannon). A stateless MCP client sends each tool call as one
 * POST, so one request is one page read on both sides; the first answer of each is checked
 * to be the same markdown. The site's MCP endpoint is measured the same way against the
 * site's own `<page>.md`.
 *
 * Webhooks: delivery latency from a merge to a receiver, p50/p99 (bench/integrations/webhooks.ts).
 *
 * `npm run bench -- integrations`, or `node --import tsx bench/integrations.ts`.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { loadConfig } from '../sync-server/src/config';
import type { Deps } from '../sync-server/src/http/env';
import { createLogger } from '../sync-server/src/logger';
import { listenHttp } from '../sync-server/src/server';
import { call, mcpClient } from '../sync-server/src/testing/mcpClients';
import { writePages } from '../sync-server/src/testing/testContent';
import { migrate } from '../sync-server/src/store/migrate';
import { createOrg } from '../sync-server/src/store/organizations';
import { openPglite } from '../sync-server/src/store/pglite';
import { createToken } from '../sync-server/src/store/tokens';
import { ensureUser } from '../sync-server/src/store/users';

const HERE = dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.INTEGRATIONS_BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const GOAL = 0.8;

const PAGE_MARKDOWN = `Quire keeps documentation next to the people who write it.

## Install

\`\`\`bash
npm install -g @acme/cli
\`\`\`

{% hint style="info" %}
You need Node.js 20 or later.
{% endhint %}

## Configure

| Option | Default | Meaning |
| --- | --- | --- |
| region | eu | Where your data lives |
| retries | 3 | How often a request is retried |

- Create a project
- Invite your team
- Publish your first page
`;

interface Figures {
  rps: number;
  p99: number;
  errors: number;
}

async function load(opts: autocannon.Options): Promise<Figures> {
  // A short warm-up first, so both sides are measured with their caches and JIT as they run.
  await autocannon({ ...opts, connections: CONNECTIONS, duration: 1 });
  const r = await autocannon({ ...opts, connections: CONNECTIONS, duration: SECONDS });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** One JSON-RPC `tools/call`, as a stateless MCP client POSTs it. */
function toolCall(url: string, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): autocannon.Options {
  return {
    url,
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  };
}

async function mcpBench() {
  const db = await openPglite(undefined);
  await migrate(db);
  const config = { ...loadConfig({}), rateLimitPerAddress: 0, rateLimitPerToken: 0, rateLimitSitesPerAddress: 0 };
  const deps: Deps = { db, config, log: createLogger('silent') };
  const server = await listenHttp(deps, 0, '127.0.0.1');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const user = await ensureUser(db, 'bench@example.com', 'Bench');
    const token = await createToken(db, user.id);
    const auth = { authorization: `Bearer ${token}` };
    const org = await createOrg(db, 'Bench', user.id);
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${origin}${path}`, {
        method,
        headers: { ...auth, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json() as Promise<{ id: string; basename: string; markdown: string }>;
    };
    const space = await api('POST', `/v1/orgs/${org.id}/spaces`, { title: 'Guides' });
    const pageIds = await writePages(
      db,
      space.id,
      Array.from({ length: 40 }, (_, i) => ({ title: `Page ${i + 1}`, markdown: PAGE_MARKDOWN })),
    );
    const pageId = pageIds[19] as string;
    const site = await api('POST', `/v1/orgs/${org.id}/sites`, { title: 'Bench Docs', spaces: [space.id] });
    await api('POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`);
    const siteRoot = `${origin}/s/${org.id}/${site.basename}`;

    // The same page through both doors, checked once with the SDK's own client.
    const restPath = `/v1/spaces/${space.id}/content/page/${pageId}?format=markdown`;
    const rest = (await api('GET', restPath)).markdown;
    const client = await mcpClient(`${origin}/v1/mcp`, auth);
    const viaMcp = await call(client, 'read_page', { spaceId: space.id, pageId });
    await client.close();
    if (viaMcp.isError || viaMcp.text !== rest) throw new Error(`MCP read_page differs from /v1: ${viaMcp.text.slice(0, 200)}`);
    const siteClient = await mcpClient(`${siteRoot}/~mcp`);
    const siteMd = await (await fetch(`${siteRoot}/page-20.md`)).text();
    if ((await call(siteClient, 'read_page', { page: '/page-20' })).text !== siteMd) throw new Error('site MCP read_page differs from .md');
    await siteClient.close();

    const restFigures = await load({ url: `${origin}${restPath}`, headers: auth });
    const mcpFigures = await load(toolCall(`${origin}/v1/mcp`, 'read_page', { spaceId: space.id, pageId }, auth));
    const mdFigures = await load({ url: `${siteRoot}/page-20.md` });
    const siteMcpFigures = await load(toolCall(`${siteRoot}/~mcp`, 'read_page', { page: '/page-20' }));

    const row = (name: string, f: Figures, base?: Figures) =>
      `${name.padEnd(44)} ${f.rps.toFixed(0).padStart(7)} req/s   p99 ${String(f.p99).padStart(4)} ms${base ? `   ${(f.rps / base.rps).toFixed(2)}× (goal ≥ ${GOAL}×)` : ''}${f.errors ? `   (${f.errors} errors)` : ''}`;
    console.log(`page reads: ${Buffer.byteLength(rest)} bytes of markdown, ${CONNECTIONS} connections, ${SECONDS} s each`);
    console.log(row('/v1 page as markdown (GET)', restFigures));
    console.log(row('/v1/mcp tools/call read_page (POST)', mcpFigures, restFigures));
    console.log(row('site page .md (GET)', mdFigures));
    console.log(row('site ~mcp tools/call read_page (POST)', siteMcpFigures, mdFigures));
  } finally {
    await new Promise((r) => server.close(r));
    await db.close();
  }
}

/** The webhook figures, from the module that measures them when this checkout has it. */
async function webhookBench() {
  const file = join(HERE, 'integrations', 'webhooks.ts');
  if (!existsSync(file)) {
    console.log('webhooks: not available');
    return;
  }
  const mod = (await import(pathToFileURL(file).href)) as {
    webhookLatency?: (opts: Record<string, unknown>) => Promise<{ p50: number; p99: number; n: number }>;
  };
  if (!mod.webhookLatency) {
    console.log('webhooks: not available');
    return;
  }
  const { p50, p99, n } = await mod.webhookLatency({});
  console.log(`webhook delivery, merge → receiver: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (${n} deliveries)`);
}

export async function runIntegrationsBench() {
  await mcpBench();
  await webhookBench();
}

if (import.meta.url === `file://${process.argv[1]}`) await runIntegrationsBench();

/**
 * Integrations benchmark.
 *
 * MCP: page reads through the organization's MCP endpoint (`tools/call read_page` on
 * `/v1/mcp`) next to `/v1` markdown reads of the same page
 * (`GET /v1/spaces/{id}/content/page/{pageId}?format=markdown`): same server, same run, same
 * load generator (autocannon, 10 connections). A stateless MCP client sends each tool call as
 * one POST, so one request is one page read on both sides; the answers are first checked to
 * be the same markdown, read once with the SDK's own client. The server runs in a process of
 * its own; both sides run in alternating rounds, so a change in the machine's load weighs on
 * both alike, and besides reads a second the server's CPU time per read is given (on a shared
 * machine the steadier figure). The site's MCP endpoint is measured the same way against the
 * site's own `<page>.md`.
 *
 * Webhooks: delivery latency from a merge to a receiver, p50/p99 (bench/integrations/webhooks.ts).
 *
 * `npm run bench -- integrations`, or `node --import tsx bench/integrations.ts`.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { call, mcpClient } from '../sync-server/src/testing/mcpClients';
import type { BenchTarget } from './integrations/mcpServer';

const HERE = dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.INTEGRATIONS_BENCH_SECONDS ?? 8);
const CONNECTIONS = 10;
const ROUNDS = 4;
const GOAL = 0.8;

interface Figures {
  rps: number;
  p99: number;
  /** Server CPU time per request, in microseconds. */
  cpuUs: number;
  errors: number;
}

class BenchServer {
  private constructor(
    private child: ChildProcess,
    readonly target: BenchTarget,
  ) {}

  static start(): Promise<BenchServer> {
    // INTEGRATIONS_BENCH_PROFILE=<dir> writes the server's CPU profile there (node --cpu-prof).
    const profile = process.env.INTEGRATIONS_BENCH_PROFILE;
    const execArgv = ['--import', 'tsx', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])];
    const child = fork(join(HERE, 'integrations', 'mcpServer.ts'), { execArgv, stdio: 'inherit' });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`benchmark server exited (${code})`)));
      child.once('message', (m) => resolve(new BenchServer(child, (m as { target: BenchTarget }).target)));
    });
  }

  /** CPU time (user + system) the server has used, in microseconds. */
  cpu(): Promise<number> {
    return new Promise((resolve) => {
      this.child.once('message', (m) => {
        const { cpu } = m as { cpu: NodeJS.CpuUsage };
        resolve(cpu.user + cpu.system);
      });
      this.child.send('cpu');
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.child.removeAllListeners('exit');
      this.child.once('exit', () => resolve());
      this.child.send('stop');
    });
  }
}

/**
 * Both sides in alternating rounds (A B, B A, …) after a warm-up of each, so a change in
 * the machine's load during the run weighs on both alike.
 */
async function compare(server: BenchServer, a: autocannon.Options, b: autocannon.Options): Promise<[Figures, Figures]> {
  const totals = [
    { requests: 0, seconds: 0, cpu: 0, p99: 0, errors: 0 },
    { requests: 0, seconds: 0, cpu: 0, p99: 0, errors: 0 },
  ];
  const run = async (side: 0 | 1, duration: number, counted: boolean) => {
    const before = await server.cpu();
    const r = await autocannon({ ...(side === 0 ? a : b), connections: CONNECTIONS, duration });
    const used = (await server.cpu()) - before;
    if (!counted) return;
    const t = totals[side] as (typeof totals)[0];
    t.requests += r.requests.total;
    t.seconds += r.duration;
    t.cpu += used;
    t.p99 = Math.max(t.p99, r.latency.p99);
    t.errors += r.errors + r.non2xx;
  };
  await run(0, 1, false);
  await run(1, 1, false);
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) await run(side, SECONDS / ROUNDS, true);
  }
  const figures = (t: (typeof totals)[0]): Figures => ({
    rps: t.requests / t.seconds,
    p99: t.p99,
    cpuUs: t.cpu / Math.max(1, t.requests),
    errors: t.errors,
  });
  return [figures(totals[0] as (typeof totals)[0]), figures(totals[1] as (typeof totals)[0])];
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
  const server = await BenchServer.start();
  const { origin, token, spaceId, pageId, siteRoot } = server.target;
  const auth = { authorization: `Bearer ${token}` };
  try {
    // The same page through both doors, checked once with the SDK's own client.
    const restPath = `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`;
    const rest = ((await (await fetch(`${origin}${restPath}`, { headers: auth })).json()) as { markdown: string }).markdown;
    const client = await mcpClient(`${origin}/v1/mcp`, auth);
    const viaMcp = await call(client, 'read_page', { spaceId, pageId });
    await client.close();
    if (viaMcp.isError || viaMcp.text !== rest) throw new Error(`MCP read_page differs from /v1: ${viaMcp.text.slice(0, 200)}`);
    const siteClient = await mcpClient(`${siteRoot}/~mcp`);
    const siteMd = await (await fetch(`${siteRoot}/page-20.md`)).text();
    if ((await call(siteClient, 'read_page', { page: '/page-20' })).text !== siteMd) throw new Error('site MCP read_page differs from .md');
    await siteClient.close();

    const [restFigures, mcpFigures] = await compare(
      server,
      { url: `${origin}${restPath}`, headers: auth },
      toolCall(`${origin}/v1/mcp`, 'read_page', { spaceId, pageId }, auth),
    );
    const [mdFigures, siteMcpFigures] = await compare(
      server,
      { url: `${siteRoot}/page-20.md` },
      toolCall(`${siteRoot}/~mcp`, 'read_page', { page: '/page-20' }),
    );

    const row = (name: string, f: Figures, base?: Figures) =>
      [
        name.padEnd(40),
        `${f.rps.toFixed(0).padStart(6)} req/s`,
        base ? `${(f.rps / base.rps).toFixed(2)}×` : '     ',
        `  server CPU ${f.cpuUs.toFixed(0).padStart(5)} µs/read`,
        base ? `(${(base.cpuUs / f.cpuUs).toFixed(2)}×)` : '       ',
        `  p99 ${String(f.p99).padStart(4)} ms`,
        f.errors ? `  (${f.errors} errors)` : '',
      ].join(' ');
    console.log(
      `page reads: ${Buffer.byteLength(rest)} bytes of markdown, ${CONNECTIONS} connections, ${SECONDS} s a side in ${ROUNDS} alternating rounds; goal for MCP ≥ ${GOAL}× its baseline`,
    );
    console.log(row('/v1 page as markdown (GET)', restFigures));
    console.log(row('/v1/mcp tools/call read_page (POST)', mcpFigures, restFigures));
    console.log(row('site page .md (GET)', mdFigures));
    console.log(row('site ~mcp tools/call read_page (POST)', siteMcpFigures, mdFigures));
  } finally {
    await server.stop();
  }
}

/** The webhook figures, from the module that measures them when this checkout has it. */
async function webhookBench() {
  const file = join(HERE, 'integrations', 'webhooks.ts');
  const mod = existsSync(file)
    ? ((await import(pathToFileURL(file).href)) as {
        webhookLatency?: (opts: Record<string, unknown>) => Promise<{ p50: number; p99: number; n: number }>;
      })
    : undefined;
  if (!mod?.webhookLatency) {
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

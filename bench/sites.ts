/**
 * Published-site benchmark: requests a second and p99 latency of a published page served
 * from the render cache, and of a first render (cache emptied before every request),
 * next to a bare `node:http` server streaming the very same bytes from a static file in
 * the same run (the ceiling). Figures are printed with their ratio to that baseline.
 *
 * `npm run bench -- sites`, or `node --import tsx bench/sites.ts`.
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import autocannon from 'autocannon';
import { loadConfig } from '../sync-server/src/config';
import { createApp } from '../sync-server/src/http/app';
import { createLogger } from '../sync-server/src/logger';
import { clearRenderCaches } from '../sync-server/src/sites/app';
import { writePages } from '../sync-server/src/testing/testContent';
import { migrate } from '../sync-server/src/store/migrate';
import { createOrg } from '../sync-server/src/store/organizations';
import { openPglite } from '../sync-server/src/store/pglite';
import { createToken } from '../sync-server/src/store/tokens';
import { ensureUser } from '../sync-server/src/store/users';

const SECONDS = Number(process.env.SITES_BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const PAGES = 40;

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

## Next steps

Read about [authentication](https://example.com/auth) and the rest of the platform.
`;

/** A long imported page: 300 blocks of everything real repositories hold (HTML, code, math, hints, tables, columns). */
function longPage(): string {
  const kinds = [
    (i: number) => `## Section ${i} <a href="#s${i}" id="s${i}"></a>`,
    (i: number) => `Paragraph ${i} with **bold**, _italic_, \`code\` and a [link](https://example.com/${i}).`,
    (i: number) => `\`\`\`ts\nexport function f${i}(a: number): number {\n  return a * ${i};\n}\n\`\`\``,
    (i: number) =>
      `<div align="center"><figure><img src="https://example.com/${i}.png" alt="Figure ${i}"><figcaption>Figure ${i}</figcaption></figure></div>`,
    (i: number) => `$$\n\\sum_{k=0}^{${i}} k^2\n$$`,
    (i: number) => `{% hint style="warning" %}\nHint ${i}.\n{% endhint %}`,
    (i: number) => `| A | B |\n| --- | --- |\n| ${i} | <mark>${i * 2}</mark> |`,
    (i: number) => `{% columns %}\n{% column %}\nLeft ${i}\n{% endcolumn %}\n{% column %}\nRight ${i}\n{% endcolumn %}\n{% endcolumns %}`,
    (i: number) => `- item ${i}\n- item ${i + 1}`,
    (i: number) => `<table data-view="cards"><tbody><tr><td><strong>Card ${i}</strong></td><td>Text</td></tr></tbody></table>`,
  ];
  return Array.from({ length: 300 }, (_, i) => (kinds[i % kinds.length] as (i: number) => string)(i)).join('\n\n');
}

/** Median and slowest of sequential first renders (the render cache emptied before each). */
async function firstRenders(url: string, n: number): Promise<{ median: number; max: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const res = await fetch(`${url}?cold`);
    bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200) throw new Error(`long page answered ${res.status}`);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(n / 2)] as number, max: times[n - 1] as number, bytes };
}

interface Figures {
  rps: number;
  p99: number;
  errors: number;
}

async function load(url: string): Promise<Figures> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  const errors = r.errors + r.non2xx;
  // an error answer (a 429, a 500) is cheaper than a page: counted as throughput it would flatter the figure
  if (errors > 0) throw new Error(`${url} answered ${errors} errors in ${r.requests.total} requests`);
  return { rps: r.requests.average, p99: r.latency.p99, errors };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export async function runSitesBench() {
  const db = await openPglite(undefined);
  await migrate(db);
  const config = { ...loadConfig({}), rateLimitPerAddress: 0, rateLimitPerToken: 0, rateLimitSitesPerAddress: 0 };
  const app = createApp({ db, config, log: createLogger('silent') });
  // Requests with `?cold` find the render cache empty: what a first render costs.
  const server = serve({
    fetch: (req) => {
      if (req.url.includes('?cold')) clearRenderCaches();
      return app.fetch(req);
    },
    port: 0,
    hostname: '127.0.0.1',
  }) as Server;
  await new Promise((r) => server.once('listening', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const user = await ensureUser(db, 'bench@example.com', 'Bench');
  const token = await createToken(db, user.id);
  const org = await createOrg(db, 'Bench', user.id);
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    return res.json() as Promise<{ id: string; basename: string }>;
  };
  const space = await api('POST', `/v1/orgs/${org.id}/spaces`, { title: 'Guides' });
  await writePages(
    db,
    space.id,
    Array.from({ length: PAGES }, (_, i) => ({ title: `Page ${i + 1}`, description: `About topic ${i + 1}.`, markdown: PAGE_MARKDOWN })),
  );
  await writePages(db, space.id, [{ title: 'Long page', markdown: longPage() }]);
  const site = await api('POST', `/v1/orgs/${org.id}/sites`, { title: 'Bench Docs', spaces: [space.id] });
  await api('POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`);
  const pageUrl = `${origin}/s/${org.id}/${site.basename}/page-20`;

  const first = await fetch(pageUrl);
  const bytes = Buffer.from(await first.arrayBuffer());
  if (first.status !== 200) throw new Error(`published page answered ${first.status}`);
  const headers = Object.fromEntries(first.headers.entries());
  // The ceiling: the same bytes as a file on disk, streamed by a bare node:http server.
  const dir = mkdtempSync(join(tmpdir(), 'quire-sites-bench-'));
  const file = join(dir, 'page.html');
  writeFileSync(file, bytes);
  const baseline = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': headers['content-type'] ?? 'text/html',
      'content-length': bytes.length,
      'content-security-policy': headers['content-security-policy'] ?? '',
    });
    createReadStream(file).pipe(res);
  });
  const basePort = await listen(baseline);

  try {
    const staticFigures = await load(`http://127.0.0.1:${basePort}/`);
    const cached = await load(pageUrl);
    const cold = await load(`${pageUrl}?cold`);
    const row = (name: string, f: Figures) =>
      `${name.padEnd(34)} ${f.rps.toFixed(0).padStart(8)} req/s   p99 ${String(f.p99).padStart(5)} ms   ${(f.rps / staticFigures.rps).toFixed(3)}× static${f.errors ? `   (${f.errors} errors)` : ''}`;
    console.log(`published page: ${bytes.length} bytes, ${CONNECTIONS} connections, ${SECONDS} s each`);
    console.log(row('static file (bare node:http)', staticFigures));
    console.log(row('published page, cached', cached));
    console.log(row('published page, first render', cold));
    // The first search of a site version: with nobody having read a page of it yet (the index
    // is built while the search waits), and after a reader opened a page (built meanwhile).
    const searchOnce = async () => {
      const t = performance.now();
      const res = await fetch(`${origin}/s/${org.id}/${site.basename}/~search?q=configure`);
      await res.arrayBuffer();
      return performance.now() - t;
    };
    await api('POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`);
    const unread = await searchOnce();
    await api('POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`);
    await (await fetch(`${pageUrl}?cold`)).arrayBuffer();
    await new Promise((r) => setTimeout(r, 2000));
    const afterRead = await searchOnce();
    console.log(
      `first search of a published version:  ${unread.toFixed(1)} ms before any page was read, ${afterRead.toFixed(1)} ms after one was (${PAGES + 1} pages)`,
    );
    const long = await firstRenders(`${origin}/s/${org.id}/${site.basename}/long-page`, 20);
    console.log(
      `300-block page, first render:      median ${long.median.toFixed(1)} ms, slowest ${long.max.toFixed(1)} ms (${long.bytes} bytes, 20 sequential requests)`,
    );
  } finally {
    await new Promise((r) => baseline.close(r));
    rmSync(dir, { recursive: true, force: true });
    await new Promise((r) => server.close(r));
    await db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runSitesBench();

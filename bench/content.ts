/**
 * Content benchmark.
 *
 * 1. Merge cost: a change request that edits 10 pages, merged into spaces of 100, 1,000
 *    and 10,000 pages. What a merge does should follow the change request, not the pages
 *    it did not touch, so the three figures should stay close.
 * 2. `GET /v1/spaces/{id}/content/page/{pageId}?format=markdown` requests a second, next
 *    to a bare `node:http` server answering the same bytes in the same run (the ceiling),
 *    and to `GET /v1/spaces/{id}` (the same authentication and access checks, no content):
 *    the gap between those two is what reading the page costs.
 *
 * `npm run bench -- content`, or `node --import tsx bench/content.ts`.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createPage, listPages, setPageMarkdown } from '@quire/shared/content/index';
import autocannon from 'autocannon';
import * as Y from 'yjs';
import { loadConfig } from '../sync-server/src/config';
import { branchDocId } from '../sync-server/src/core/content/branches';
import { mergeChangeRequest, openChangeRequest } from '../sync-server/src/core/content/changeRequests';
import { cutRevision, initSpaceContent } from '../sync-server/src/core/content/revisions';
import { createApp } from '../sync-server/src/http/app';
import { createLogger } from '../sync-server/src/logger';
import type { Db } from '../sync-server/src/store/db';
import { migrate } from '../sync-server/src/store/migrate';
import { createOrg } from '../sync-server/src/store/organizations';
import { openPglite } from '../sync-server/src/store/pglite';
import { createSpace } from '../sync-server/src/store/spaces';
import { createToken } from '../sync-server/src/store/tokens';
import { ensureUser } from '../sync-server/src/store/users';
import { runRepositoryBench } from './repository';
import { appendUpdate, loadYDoc } from '../sync-server/src/store/ydocs';

const SIZES = process.env.CONTENT_BENCH_SIZES?.split(',').map(Number) ?? [100, 1_000, 10_000];
const TOUCHED = 10;
const MERGES = Number(process.env.CONTENT_BENCH_MERGES ?? 5);
const LOAD_SECONDS = Number(process.env.CONTENT_BENCH_SECONDS ?? 5);

/**
 * A main branch of `n` pages in groups of 100 (a parent and its children). Each group is
 * built in its own document and the updates are merged, which keeps building 10,000
 * pages linear; siblings created apart share order keys, which the tree orders by id.
 */
function buildPages(n: number): Uint8Array {
  const updates: Uint8Array[] = [];
  for (let g = 0; g * 100 < n; g++) {
    const doc = new Y.Doc();
    const parent = createPage(doc, { title: `Section ${g}`, markdown: `Section ${g} introduction.\n` });
    for (let i = 1; i < Math.min(100, n - g * 100); i++) {
      createPage(doc, { title: `Page ${g}-${i}`, parent, markdown: `## Heading ${i}\n\nSome text for page ${g}-${i}.\n\n* one\n* two\n` });
    }
    updates.push(Y.encodeStateAsUpdate(doc));
    doc.destroy();
  }
  return Y.mergeUpdates(updates);
}

async function freshDb(): Promise<Db> {
  const db = await openPglite(undefined);
  await migrate(db);
  return db;
}

async function seedSpace(db: Db, n: number) {
  const user = await ensureUser(db, `bench-${n}@example.com`);
  const org = await createOrg(db, 'Bench', user.id);
  const space = await db.transaction(async (tx) => {
    const s = await createSpace(tx, org.id, { title: `Bench ${n}` });
    await initSpaceContent(tx, s.id);
    return s;
  });
  await appendUpdate(db, branchDocId({ spaceId: space.id }), buildPages(n));
  await cutRevision(db, { spaceId: space.id });
  return { user, org, space };
}

/** Edits `TOUCHED` pages of a change request as a live client would, and cuts its revision. */
async function editChangeRequest(db: Db, spaceId: string, changeRequestId: string, round: number) {
  const branch = { spaceId, changeRequestId };
  const { doc } = await loadYDoc(db, branchDocId(branch));
  const pages = listPages(doc).filter((p) => p.parent !== null);
  const updates: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => updates.push(u));
  for (let i = 0; i < TOUCHED; i++) {
    const page = pages[(i * 7919 + round * 104729) % pages.length];
    if (page) setPageMarkdown(doc, page.id, `## Edited ${round}\n\nNew text ${i} of round ${round}.\n`);
  }
  for (const u of updates) await appendUpdate(db, branchDocId(branch), u);
  doc.destroy();
  await cutRevision(db, branch);
}

async function mergeCost(n: number): Promise<{ median: number; min: number; all: number[] }> {
  const db = await freshDb();
  try {
    const { user, space } = await seedSpace(db, n);
    const times: number[] = [];
    for (let round = 0; round < MERGES; round++) {
      const cr = await openChangeRequest(db, space.id, user.id, { subject: `Round ${round}` });
      await editChangeRequest(db, space.id, cr.id, round);
      const started = performance.now();
      await mergeChangeRequest(db, cr.id, user.id);
      times.push(performance.now() - started);
    }
    const sorted = [...times].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)] as number, min: sorted[0] as number, all: times };
  } finally {
    await db.close();
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, headers, connections: 10, duration: LOAD_SECONDS });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function pageReadThroughput() {
  const db = await freshDb();
  const { user, space } = await seedSpace(db, 1_000);
  const token = await createToken(db, user.id);
  const config = { ...loadConfig({}), rateLimitPerToken: 0, rateLimitPerAddress: 0 };
  const app = createApp({ db, config, log: createLogger('silent') });
  const quire = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as unknown as Server;
  await new Promise<void>((resolve) => (quire.listening ? resolve() : quire.once('listening', () => resolve())));
  const port = (quire.address() as AddressInfo).port;
  const { doc } = await loadYDoc(db, branchDocId({ spaceId: space.id }));
  const pageId = listPages(doc).find((p) => p.parent !== null)?.id as string;
  const path = `/v1/spaces/${space.id}/content/page/${pageId}?format=markdown`;
  const headers = { authorization: `Bearer ${token}` };
  const sample = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  if (sample.status !== 200) throw new Error(`page read answered ${sample.status}`);
  const bytes = Buffer.from(await sample.arrayBuffer());

  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length });
    res.end(bytes);
  });
  const barePort = await listen(bare);
  try {
    await load(`http://127.0.0.1:${port}${path}`, headers); // warm-up: caches, JIT
    const ours = await load(`http://127.0.0.1:${port}${path}`, headers);
    const spaceRead = await load(`http://127.0.0.1:${port}/v1/spaces/${space.id}`, headers);
    const baseline = await load(`http://127.0.0.1:${barePort}/`);
    return { ours, spaceRead, baseline, bytes: bytes.length };
  } finally {
    bare.close();
    quire.close();
    await db.close();
  }
}

export async function runContentBench() {
  await runRepositoryBench();
  if (process.env.CONTENT_BENCH_ONLY_REPOSITORY) return;
  console.log('');
  console.log(`Merge of a change request touching ${TOUCHED} pages (median of ${MERGES}, PGlite):`);
  const results: { n: number; median: number; min: number }[] = [];
  await mergeCost(100); // warm-up: JIT and module loading, not reported
  for (const n of SIZES) {
    const { median, min, all } = await mergeCost(n);
    results.push({ n, median, min });
    console.log(
      `  ${String(n).padStart(6)} pages: ${median.toFixed(1).padStart(7)} ms   (min ${min.toFixed(1)}; runs: ${all.map((t) => t.toFixed(1)).join(', ')})`,
    );
  }
  // On a busy machine single runs stray; the fastest run shows the work a merge does.
  const first = results[0];
  const last = results[results.length - 1];
  if (first && last) {
    console.log(
      `  growth ${first.n.toLocaleString('en')} → ${last.n.toLocaleString('en')} pages: median ×${(last.median / first.median).toFixed(2)}, fastest ×${(last.min / first.min).toFixed(2)}`,
    );
  }

  if (process.env.CONTENT_BENCH_SKIP_READS) return;
  console.log(`\nGET page ?format=markdown, ${LOAD_SECONDS} s each, 10 connections:`);
  const { ours, spaceRead, baseline, bytes } = await pageReadThroughput();
  console.log(
    `  quire page (auth, access, revision read): ${ours.rps.toFixed(0).padStart(7)} req/s   p99 ${ours.p99} ms   errors ${ours.errors}`,
  );
  console.log(
    `  quire GET space (auth, access only):      ${spaceRead.rps.toFixed(0).padStart(7)} req/s   p99 ${spaceRead.p99} ms   errors ${spaceRead.errors}`,
  );
  console.log(`  bare node:http, same ${bytes} bytes:       ${baseline.rps.toFixed(0).padStart(7)} req/s   p99 ${baseline.p99} ms`);
  console.log(
    `  ratio: ${((ours.rps / baseline.rps) * 100).toFixed(1)} % of the bare server, ${((ours.rps / spaceRead.rps) * 100).toFixed(0)} % of a space read`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runContentBench();
}

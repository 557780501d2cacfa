/**
 * Git Sync over the real protocol: a generated repository of 1,000 pages and 500 images
 * served by git's own `git http-backend` on 127.0.0.1. Printed, on both databases:
 * - the space's import from it against `git clone` of the same repository from the same
 *   server in the same run (goal ≤ 3×);
 * - after one page is edited, the export's commit and push (goal ≤ 1 s), with the objects
 *   the push carried (one blob and the trees above it, and the commit).
 * `npm run bench -- git`; `GIT_BENCH_PAGES`, `GIT_BENCH_IMAGES` to change the size.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { PageKey, findPageMap } from '@quire/shared/content/layout';
import * as Y from 'yjs';
import { loadConfig } from '../sync-server/src/config';
import { GitRunner } from '../sync-server/src/core/git/runner';
import { createApp } from '../sync-server/src/http/app';
import { createLogger } from '../sync-server/src/logger';
import type { Db } from '../sync-server/src/store/db';
import { openStore } from '../sync-server/src/store/open';
import { createOrg } from '../sync-server/src/store/organizations';
import { createToken } from '../sync-server/src/store/tokens';
import { ensureUser } from '../sync-server/src/store/users';
import { generatedRepository } from '../sync-server/src/testing/docsRepository';
import { GitServer } from '../sync-server/src/testing/gitServer';
import { editLive } from '../sync-server/src/testing/testEdits';
import { scratchDatabase } from './scratchDatabase';

const PAGES = Number(process.env.GIT_BENCH_PAGES ?? 1000);
const IMAGES = Number(process.env.GIT_BENCH_IMAGES ?? 500);
const POSTGRES = process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const run = promisify(execFile);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await fn();
  return { ms: performance.now() - started, result };
}

/**
 * `git clone` of the repository over HTTP, as a teammate would: the floor for bringing it in.
 * Not `execFileSync`: the git server answers from this process's event loop.
 */
async function cloneOnce(server: GitServer, name: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-git-bench-clone-'));
  try {
    const started = performance.now();
    await run('git', ['clone', '--quiet', server.url(name), join(dir, 'repo')], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' },
    });
    return performance.now() - started;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(label: string, db: Db, server: GitServer, repo: string, dataDir: string) {
  // The spaces' object stores of the repository go under the run's own data folder.
  const config = { ...loadConfig({}), dataDir, allowPrivateFetch: true, rateLimitPerAddress: 0, rateLimitPerToken: 0 };
  const deps = { db, config, log: createLogger('silent') };
  const app = createApp(deps);
  const runner = new GitRunner(deps);
  const user = await ensureUser(db, 'bench@example.com', 'Bench');
  const token = await createToken(db, user.id);
  const org = await createOrg(db, 'Bench', user.id);
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await app.request(`http://quire.test${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
  };
  const operate = async (spaceId: string, direction: 'import' | 'export', body: Record<string, unknown>) => {
    const asked = await api('POST', `/v1/spaces/${spaceId}/git/${direction}`, body);
    if (asked.status !== 204) throw new Error(`${direction}: ${asked.status} ${JSON.stringify(asked.body)}`);
    await runner.runOnce();
    const info = (await api('GET', `/v1/spaces/${spaceId}/git/info`)).body;
    if (info?.operation?.state !== 'success') throw new Error(`${direction}: ${JSON.stringify(info?.operation)}`);
    return info.operation as { commit?: string };
  };

  try {
    const clones: number[] = [await cloneOnce(server, repo)];
    const imports: number[] = [];
    let spaceId = '';
    for (let round = 0; round < 2; round++) {
      spaceId = (await api('POST', `/v1/orgs/${org.id}/spaces`, { title: `Bench ${round}` })).body.id as string;
      imports.push((await timed(() => operate(spaceId, 'import', { url: server.url(repo), ref: 'main' }))).ms);
      clones.push(await cloneOnce(server, repo));
    }
    const imported = median(imports);
    const cloned = median(clones);

    const unchanged = await timed(() =>
      operate(spaceId, 'export', { url: server.url(repo), ref: 'main', commitMessage: 'Nothing changed' }),
    );
    const pages = (await api('GET', `/v1/spaces/${spaceId}/content`)).body.pages as { id: string; pages: { id: string }[] }[];
    const candidates = pages.flatMap((p) => [p, ...p.pages]).reverse();
    // The last page that has a paragraph with text (not every generated page has one).
    const paragraphOf = (doc: Y.Doc, id: string) => {
      const body = findPageMap(doc, id)?.get(PageKey.body) as Y.XmlFragment | undefined;
      const paragraphs = (body?.toArray() ?? []).filter((n) => n instanceof Y.XmlElement && n.nodeName === 'paragraph') as Y.XmlElement[];
      return paragraphs.map((p) => p.toArray().findLast((n) => n instanceof Y.XmlText) as Y.XmlText | undefined).find(Boolean);
    };
    let page: string | undefined;
    const exports: number[] = [];
    const objects: number[] = [];
    for (let round = 0; round < 3; round++) {
      await editLive(db, { spaceId }, (doc) => {
        page ??= candidates.find((p) => paragraphOf(doc, p.id))?.id;
        if (!page) throw new Error('no page has a paragraph to edit');
        const text = paragraphOf(doc, page) as Y.XmlText;
        text.insert(text.length, ` Edit ${round}.`);
      });
      const pushedBefore = server.pushedObjects.length;
      const exported = await timed(() =>
        operate(spaceId, 'export', { url: server.url(repo), ref: 'main', commitMessage: `Edit ${round}` }),
      );
      if (!exported.result.commit) throw new Error('the edit made no commit');
      exports.push(exported.ms);
      objects.push(server.pushedObjects.slice(pushedBefore).reduce((a, b) => a + b, 0));
    }
    console.log(
      `${label.padEnd(18)} import ${(imported / 1000).toFixed(2)} s vs git clone ${(cloned / 1000).toFixed(2)} s: ${(imported / cloned).toFixed(2)}× (goal ≤ 3×; imports ${imports.map((m) => (m / 1000).toFixed(2)).join(', ')} s)`,
    );
    console.log(
      `${''.padEnd(18)} export with nothing changed ${unchanged.ms.toFixed(0)} ms (no commit: ${unchanged.result.commit === undefined}); ` +
        `one page changed: commit and push ${median(exports).toFixed(0)} ms median of ${exports.map((m) => m.toFixed(0)).join(', ')} (goal ≤ 1,000 ms), ` +
        `${objects.join(', ')} objects pushed`,
    );
  } finally {
    await runner.stop();
  }
}

export async function runGitBench() {
  const server = await GitServer.start();
  const files = generatedRepository({ pages: PAGES, images: IMAGES });
  try {
    server.createRepository('docs-pglite', files, { message: 'Docs' });
    server.createRepository('docs-postgres', files, { message: 'Docs' });
    const bytes = Object.values(files).reduce((n, f) => n + f.byteLength, 0);
    console.log(
      `A repository of ${PAGES} pages and ${IMAGES} images (${Object.keys(files).length} files, ${(bytes / 1024 / 1024).toFixed(1)} MB) over smart HTTP (git http-backend):`,
    );

    const dir = mkdtempSync(join(tmpdir(), 'quire-git-bench-'));
    try {
      const { db, unlock } = await openStore({ dataDir: dir, syncJournal: false });
      try {
        await measure('embedded (PGlite)', db, server, 'docs-pglite', dir);
      } finally {
        await db.close();
        unlock();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    let scratch: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
    try {
      scratch = await scratchDatabase(POSTGRES, 'quire_git_bench');
    } catch (err) {
      console.log(`PostgreSQL at ${POSTGRES} not reachable (${(err as Error).message}): skipped`);
      return;
    }
    const pgDir = mkdtempSync(join(tmpdir(), 'quire-git-bench-'));
    try {
      const { db } = await openStore({ dataDir: pgDir, databaseUrl: scratch.url });
      try {
        await measure('PostgreSQL', db, server, 'docs-postgres', pgDir);
      } finally {
        await db.close();
      }
    } finally {
      await scratch.drop();
      rmSync(pgDir, { recursive: true, force: true });
    }
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runGitBench();

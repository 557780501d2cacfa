import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, preparedDataDir, testAdapter } from '../testing/databases';
import { spawnServer } from '../testing/processes';
import { createPage } from '@quire/shared/content/index';
import { unzipSync } from 'fflate';
import { loadConfig } from '../config';
import { readTarGz } from '../core/content/import/archive';
import { editBranch } from '../core/content/revisions';
import { openStore } from '../store/open';
import { createSpace } from '../store/spaces';
import { insertEvents } from '../store/insights';
import { createSite } from '../store/sites';
import { blankDraft, finishRows } from '../core/insights/events';
import { PRODUCTION_COST, verifyPassword } from '../core/desktopSignIn/passwords';
import { runAdmin } from './admin';

let env: NodeJS.ProcessEnv;
let dataDir: string;
let drop = async () => {};
/** Starts real server processes: on a busy machine each start can take many seconds. */
const SPAWNING = 300_000;

beforeAll(async () => {
  dataDir = preparedDataDir('quire-admin-');
  env = { DATA_DIR: dataDir, PGLITE_SHARED_BUFFERS_MB: process.env.PGLITE_SHARED_BUFFERS_MB };
  if (testAdapter() === 'postgres') {
    const fresh = await freshPostgresUrl();
    env.DATABASE_URL = fresh.url;
    drop = fresh.drop;
  }
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await drop();
});

/** The database as the tests' own setup and checks open it: on this thread, as the commands do. */
const fixtureStore = () => ({ ...loadConfig(env), pgliteThread: false });

/**
 * Runs the command line as `npm run admin` does (tsx on src/cli/admin.ts), from a checkout
 * path with a space in it reached through a symlink, and answers its output lines.
 */
async function adminProcess(...args: string[]) {
  const serverDir = join(dirname(fileURLToPath(import.meta.url)), '../..');
  const checkout = join(mkdtempSync(join(tmpdir(), 'quire-checkout-')), 'my checkout');
  symlinkSync(serverDir, checkout);
  const proc = spawn(process.execPath, ['--import', 'tsx', join(checkout, 'src/cli/admin.ts'), ...args], {
    cwd: serverDir,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => {
    stdout += d;
  });
  proc.stderr.on('data', (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
  rmSync(dirname(checkout), { recursive: true, force: true });
  return { code, lines: stdout.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1), stderr };
}

async function admin(...args: string[]) {
  return adminWithInput('', ...args);
}

async function adminWithInput(input: string, ...args: string[]) {
  const out: string[] = [];
  const errors: string[] = [];
  const code = await runAdmin(
    args,
    (l) => out.push(l),
    env,
    (l) => errors.push(l),
    async () => input,
  );
  return { code, out, errors: errors.join('\n') };
}

describe('npm run admin', () => {
  // each command opens the database afresh: slow on a busy machine
  it(
    'exports a space as a folder of markdown, .zip or .tar.gz by the file name',
    async () => {
      const org = await admin('org', 'create', 'Exports');
      const orgId = org.out[0] as string;
      const store = await openStore(fixtureStore());
      let spaceId: string;
      try {
        spaceId = (await createSpace(store.db, orgId, { title: 'Handbook' })).id;
        await store.db.transaction((tx) =>
          editBranch(tx, { spaceId }, (doc) =>
            createPage(doc, { title: 'Hello', markdown: 'Hi **there**, see [more](https://example.com).' }),
          ),
        );
      } finally {
        await store.db.close();
        store.unlock();
      }
      const zipPath = join(dataDir, 'handbook.zip');
      const zip = await admin('export', spaceId, '--out', zipPath);
      expect(zip.code, zip.errors).toBe(0);
      expect(zip.out).toEqual([expect.stringMatching(/^Wrote .*handbook\.zip \(\d+ bytes\)\.$/)]);
      const files = unzipSync(readFileSync(zipPath));
      // the first page is the root README, as git sync writes it
      expect(Object.keys(files).sort()).toEqual(['README.md', 'SUMMARY.md']);
      expect(new TextDecoder().decode(files['SUMMARY.md'])).toBe('# Table of contents\n\n* [Hello](README.md)\n');
      expect(new TextDecoder().decode(files['README.md'])).toBe('# Hello\n\nHi **there**, see [more](https://example.com).\n');
      const tarPath = join(dataDir, 'handbook.tar.gz');
      expect((await admin('export', spaceId, '--out', tarPath)).code).toBe(0);
      const tar = await readTarGz(readFileSync(tarPath), 1 << 20);
      expect([...tar.keys()].sort()).toEqual(['README.md', 'SUMMARY.md']);
      const bad = await admin('export', spaceId, '--out', join(dataDir, 'handbook.rar'));
      expect(bad.code).toBe(2);
      expect(bad.errors).toMatch(/--out must name a \.zip or \.tar\.gz file/);
      const missing = await admin('export', 'nope', '--out', zipPath);
      expect(missing.code).toBe(1);
      expect(missing.errors).toBe('No space with id nope.');
    },
    SPAWNING,
  );

  it(
    'creates an organization, a user and a token that works on the server, then revokes it',
    async () => {
      // `org create` prints the new organization's id and nothing else.
      const org = await admin('org', 'create', 'Acme', 'Docs');
      expect(org.code).toBe(0);
      expect(org.out).toHaveLength(1);
      const orgId = org.out[0] as string;
      expect(orgId).toMatch(/^[A-Za-z0-9_-]{20,}$/);

      const user = await admin('user', 'create', 'ada@acme.test', '--org', orgId, '--role', 'edit');
      expect(user.code).toBe(0);
      expect(user.out).toEqual([expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/)]);
      // `token create` prints the token alone on the last line, and nowhere else.
      const token = await admin('token', 'create', 'ada@acme.test');
      expect(token.code).toBe(0);
      const secret = token.out.at(-1) as string;
      expect(secret).toMatch(/^qt_[A-Za-z0-9_-]{43}$/);
      expect(token.out.slice(0, -1).join('\n')).not.toContain(secret);

      const server = await spawnServer(env as Record<string, string>);
      try {
        const res = await fetch(`${server.url}/v1/orgs/${orgId}`, { headers: { authorization: `Bearer ${secret}` } });
        expect(res.status).toBe(200);
        expect((await res.json()).title).toBe('Acme Docs');
        const member = await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${secret}` } });
        expect((await member.json()).email).toBe('ada@acme.test');
        if (testAdapter() === 'pglite') {
          // The embedded database is the server's alone while it runs.
          const busy = await admin('org', 'create', 'Other');
          expect(busy.code).toBe(1);
          expect(busy.out).toEqual([]);
          expect(busy.errors).toContain(`The data directory ${dataDir} is in use by another process (pid `);
          expect(busy.errors).toContain('stop the server, run the command, start the server again.');
          // Bad usage is explained without the database, so the running server is no obstacle.
          const usage = await admin('user', 'create', 'x@y.z', '--org', orgId, '--role', 'wizard');
          expect(usage.code).toBe(2);
          expect(usage.errors).toMatch(/unknown role "wizard"/);
        }
      } finally {
        server.proc.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      }

      expect((await admin('user', 'role', 'ada@acme.test', '--org', orgId, '--role', 'read')).code).toBe(0);
      expect((await admin('token', 'revoke', secret)).out).toEqual(['Token revoked.']);
      expect((await admin('token', 'revoke', secret)).out).toEqual(['No such token (nothing to revoke).']);
      const again = await spawnServer(env as Record<string, string>);
      try {
        const res = await fetch(`${again.url}/v1/orgs/${orgId}`, { headers: { authorization: `Bearer ${secret}` } });
        expect(res.status).toBe(401);
      } finally {
        again.proc.kill('SIGTERM');
        await again.exited;
      }
    },
    SPAWNING,
  );

  it(
    'prints the same lines through its real entry point, even from a checkout path with a space reached by a symlink',
    async () => {
      // Each run starts a process and opens the database: one that succeeds, one that fails.
      const orgId = (await admin('org', 'create', 'Scripted')).out[0] as string;
      expect((await admin('user', 'create', 'script@acme.test', '--org', orgId, '--role', 'read')).code).toBe(0);
      const token = await adminProcess('token', 'create', 'script@acme.test');
      expect(token.code).toBe(0);
      expect(token.lines.at(-1)).toMatch(/^qt_[A-Za-z0-9_-]{43}$/);
      expect(token.lines.slice(0, -1).join('\n')).not.toContain(token.lines.at(-1));
      const unknown = await adminProcess('user', 'create', 'x@acme.test', '--org', 'AAAAAAAAAAAAAAAAAAAAAA', '--role', 'read');
      expect(unknown).toMatchObject({ code: 1, lines: [] });
      expect(unknown.stderr).toContain('No organization with id AAAAAAAAAAAAAAAAAAAAAA.');
    },
    SPAWNING,
  );

  it('prints what readers of a site did: top pages, ratings, searches with no result, broken URLs', async () => {
    const orgId = (await admin('org', 'create', 'Readers')).out[0] as string;
    const store = await openStore(fixtureStore());
    let siteId: string;
    try {
      siteId = (await createSite(store.db, orgId, { title: 'Acme Docs', type: 'basic', visibility: 'public', basename: 'docs' })).id;
      const at = new Date(Date.now() - 60_000);
      const who = (n: number) => ({ address: `192.0.2.${n}`, userAgent: 'Mozilla/5.0 Firefox/128.0' });
      const draft = (type: string, path: string, n: number, fields: Record<string, unknown> = {}) => ({
        ...blankDraft(siteId, at, type, `https://docs.acme.test${path}`, who(n)),
        page_id: path === '/old' ? null : `page${path.replaceAll('/', '-')}`,
        ...fields,
      });
      const old = { ...draft('page_view', '/install', 9), at: new Date(Date.now() - 40 * 86400_000).toISOString() };
      await insertEvents(
        store.db,
        await finishRows(store.db, [
          draft('page_view', '/install', 1),
          draft('page_view', '/install', 2),
          draft('page_view', '/faq', 1),
          draft('page_view', '/old', 3),
          draft('page_post_feedback', '/install', 1, { feedback_rating: 'bad' }),
          draft('page_post_feedback_comment', '/install', 1, { feedback_rating: 'bad', feedback_comment: 'Which version?' }),
          draft('page_post_feedback', '/install', 2, { feedback_rating: 'good' }),
          draft('search_type_query', '/', 2, { search_query: 'flux capacitor', search_results: 0 }),
          draft('search_type_query', '/', 3, { search_query: 'install', search_results: 2 }),
          old,
        ]),
      );
    } finally {
      await store.db.close();
      store.unlock();
    }
    const report = await admin('insights', siteId, '--days', '30');
    expect(report.code, report.errors).toBe(0);
    expect(report.out).toEqual([
      `Acme Docs (site ${siteId}), last 30 days`,
      '',
      'Top pages',
      '  page      views  visitors',
      '  /install      2         2',
      '  /faq          1         1',
      '',
      'Ratings',
      '  page      good  ok  bad',
      '  /install     1   0    1',
      '',
      'Comments',
      '  page      rating  comment',
      '  /install  bad     Which version?',
      '',
      'Searches with no result',
      '  query           times',
      '  flux capacitor      1',
      '',
      'Broken URLs (page not found)',
      '  URL   views',
      '  /old      1',
      '',
    ]);
    const missing = await admin('insights', 'AAAAAAAAAAAAAAAAAAAAAA');
    expect(missing).toMatchObject({ code: 1, errors: 'No site with id AAAAAAAAAAAAAAAAAAAAAA.' });
    expect((await admin('insights', siteId, '--days', 'many')).code).toBe(2);
  });

  it('explains bad usage', async () => {
    const bad = await admin('user', 'create', 'x@y.z', '--org', 'nope', '--role', 'wizard');
    expect(bad.code).toBe(2);
    expect(bad.errors).toMatch(/unknown role "wizard"/);
    const unknown = await admin('token', 'create', 'nobody@nowhere.test');
    expect(unknown.code).toBe(1);
    expect(unknown.errors).toMatch(/No user with email/);
  });

  // each command opens the database afresh: slow on a busy machine
  it('sets a password from standard input, which the desktop sign-in checks', { timeout: SPAWNING }, async () => {
    const org = await admin('org', 'create', 'Passwords');
    expect((await admin('user', 'create', 'grace@acme.test', '--org', org.out[0] as string, '--role', 'read')).code).toBe(0);
    const short = await adminWithInput('too short\n', 'user', 'password', 'grace@acme.test');
    expect(short.code).toBe(1);
    expect(short.errors).toBe('The password must be at least 12 characters (read from standard input).');
    const set = await adminWithInput('correct horse battery staple\n', 'user', 'password', 'grace@acme.test');
    expect(set.code, set.errors).toBe(0);
    expect(set.out).toEqual(['Password set for grace@acme.test.']);
    const store = await openStore(fixtureStore());
    try {
      const [row] = await store.db.query<{ hash: string }>(
        'SELECT p.hash FROM user_passwords p JOIN users u ON u.id = p.user_id WHERE u.email = $1',
        ['grace@acme.test'],
      );
      expect(row?.hash).toMatch(/^scrypt\$32768\$8\$3\$/);
      expect(await verifyPassword('correct horse battery staple', row?.hash, PRODUCTION_COST)).toBe(true);
      expect(await verifyPassword('correct horse battery stapler', row?.hash, PRODUCTION_COST)).toBe(false);
    } finally {
      await store.db.close();
      store.unlock();
    }
    expect((await adminWithInput('correct horse battery staple', 'user', 'password', 'nobody@acme.test')).errors).toBe(
      'No user with email nobody@acme.test.',
    );
  });
});

import { realpathSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ROLES, type Role } from '@quire/shared';
import { DomainError } from '@quire/shared/domainErrors';
import { type Config, loadConfig } from '../config';
import { type InsightsReport, insightsReport } from '../core/insights/queries';
import {
  type AdminStore,
  createOrganization,
  issueToken,
  openAdminStore,
  revokeTokenValue,
  setMember,
  setPassword,
  spaceArchive,
} from '../core/platform/admin';
import { MIN_PASSWORD_LENGTH } from '../core/desktopSignIn/passwords';
import type { ArchiveFormat } from '../core/content/export';

const USAGE = `Usage: npm run admin -- <command>

  org create <title> [--owner <email>]         create an organization; prints its id
  user create <email> --org <orgId> --role <role> [--name <display name>]
                                               add a user to an organization (role: ${ROLES.join(', ')}, or guest)
  user role <email> --org <orgId> --role <role>
                                               change a member's role
  user password <email>                        set the password the user signs in with (desktop sign-in
                                               page), read from standard input (at least 12 characters)
  token create <email>                         issue a token; printed once, alone on the last line
  token revoke <token>                         revoke a token
  export <spaceId> --out <file> [--change-request <id or number>]
                                               write the space (or a change request) as a folder of
                                               markdown, .zip or .tar.gz by the file's name
  insights <siteId> [--days <n>]               what readers of a site did in the last n days (30):
                                               top pages, ratings, searches with no result, broken URLs

Works on the server's database: DATA_DIR (default ./data) or DATABASE_URL.
With the embedded database, stop the server first.`;

class UsageError extends Error {}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i === -1) return undefined;
  const v = args[i + 1];
  if (!v || v.startsWith('--')) throw new UsageError(`--${name} needs a value`);
  args.splice(i, 2);
  return v;
}

function parseRole(raw: string | undefined): Role | null {
  if (raw === undefined) throw new UsageError('--role is required');
  if (raw === 'guest') return null;
  if (!(ROLES as readonly string[]).includes(raw)) throw new UsageError(`unknown role "${raw}" (one of ${ROLES.join(', ')}, guest)`);
  return raw as Role;
}

type Db = AdminStore['db'];
/** A command whose arguments are checked; it only needs the database to run. */
type Command = (db: Db, config: Config) => Promise<number>;

/** Reads the arguments without touching the database, so bad usage is explained even while the server runs. */
function parseCommand(
  args: string[],
  out: (line: string) => void,
  errOut: (line: string) => void,
  readInput: () => Promise<string>,
): Command {
  if (args[0] === 'export') return exportCommand(args.slice(1), out, errOut);
  if (args[0] === 'insights') return insightsCommand(args.slice(1), out, errOut);
  const [group, action] = args.splice(0, 2);
  const key = `${group} ${action ?? ''}`.trim();
  switch (key) {
    case 'org create': {
      const owner = flag(args, 'owner') ?? 'admin@localhost';
      const title = args.join(' ').trim();
      if (!title) throw new UsageError('org create needs a title');
      return async (db) => {
        const org = await createOrganization(db, title, owner);
        out(org.id);
        return 0;
      };
    }
    case 'user create':
    case 'user role': {
      const orgId = flag(args, 'org');
      const role = parseRole(flag(args, 'role'));
      const name = flag(args, 'name');
      const email = args[0];
      if (!email || !email.includes('@')) throw new UsageError(`${key} needs an email`);
      if (!orgId) throw new UsageError('--org is required');
      return async (db) => {
        const user = await setMember(db, orgId, email, role, name);
        if (!user) {
          errOut(`No organization with id ${orgId}.`);
          return 1;
        }
        out(user.id);
        return 0;
      };
    }
    case 'user password': {
      const email = args[0];
      if (!email || !email.includes('@')) throw new UsageError('user password needs an email');
      return async (db, config) => {
        // Standard input, not an argument: arguments show in the process list and shell history.
        const password = (await readInput()).replace(/\r?\n$/, '');
        if (password.length < MIN_PASSWORD_LENGTH) {
          errOut(`The password must be at least ${MIN_PASSWORD_LENGTH} characters (read from standard input).`);
          return 1;
        }
        const user = await setPassword(db, email, password, config.passwordCost);
        if (!user) {
          errOut(`No user with email ${email}.`);
          return 1;
        }
        out(`Password set for ${user.email}.`);
        return 0;
      };
    }
    case 'token create': {
      const email = args[0];
      if (!email) throw new UsageError('token create needs an email');
      return async (db) => {
        const issued = await issueToken(db, email);
        if (!issued) {
          errOut(`No user with email ${email}; create it with: npm run admin -- user create ${email} --org <orgId> --role <role>`);
          return 1;
        }
        out(`New token for ${issued.user.email} (shown once; store it now):`);
        out(issued.token);
        return 0;
      };
    }
    case 'token revoke': {
      const token = args[0];
      if (!token) throw new UsageError('token revoke needs the token');
      return async (db) => {
        const revoked = await revokeTokenValue(db, token);
        out(revoked ? 'Token revoked.' : 'No such token (nothing to revoke).');
        return 0;
      };
    }
    default:
      throw new UsageError(`unknown command "${key}"`);
  }
}

/** `export <spaceId> --out <file> [--change-request <ref>]`: the same archive as `GET …/content/export?format=markdown`. */
function exportCommand(args: string[], out: (line: string) => void, errOut: (line: string) => void): Command {
  const file = flag(args, 'out');
  const ref = flag(args, 'change-request');
  const spaceId = args[0];
  if (!spaceId) throw new UsageError('export needs a space id');
  if (!file) throw new UsageError('--out is required');
  const format: ArchiveFormat | undefined = /\.zip$/i.test(file) ? 'zip' : /\.(tar\.gz|tgz)$/i.test(file) ? 'tar.gz' : undefined;
  if (!format) throw new UsageError('--out must name a .zip or .tar.gz file');
  return async (db) => {
    const archive = await spaceArchive(db, spaceId, ref, format);
    if ('missing' in archive) {
      errOut(archive.missing === 'space' ? `No space with id ${spaceId}.` : `No change request ${ref} in space ${spaceId}.`);
      return 1;
    }
    const { bytes } = archive;
    writeFileSync(file, bytes);
    out(`Wrote ${file} (${bytes.byteLength} bytes).`);
    return 0;
  };
}

/** `insights <siteId> [--days <n>]`: a site's report, read through the same queries as the API. */
function insightsCommand(args: string[], out: (line: string) => void, errOut: (line: string) => void): Command {
  const rawDays = flag(args, 'days') ?? '30';
  const siteId = args[0];
  if (!siteId) throw new UsageError('insights needs a site id');
  const days = Number(rawDays);
  if (!/^\d+$/.test(rawDays) || days < 1 || days > 3650) throw new UsageError('--days must be a whole number from 1 to 3650');
  return async (db, config) => {
    let report: InsightsReport;
    try {
      report = await insightsReport({ deps: { db, config }, actor: { kind: 'operator' } }, { siteId, days });
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') {
        errOut(`No site with id ${siteId}.`);
        return 1;
      }
      throw err;
    }
    for (const line of formatReport(report)) out(line);
    return 0;
  };
}

/** A report as lines for a terminal: one table per question, "(none)" when there is nothing to show. */
export function formatReport(r: InsightsReport): string[] {
  const table = (title: string, head: string[], rows: string[][]) => {
    if (!rows.length) return [title, '  (none)', ''];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
    // Counts line up on the right, words on the left.
    const numeric = head.map((_, i) => rows.every((row) => /^\d+$/.test(row[i] ?? '')));
    const line = (cells: string[]) =>
      `  ${cells.map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ')}`.trimEnd();
    return [title, line(head), ...rows.map(line), ''];
  };
  return [
    `${r.site.title} (site ${r.site.id}), last ${r.days} day${r.days === 1 ? '' : 's'}`,
    '',
    ...table(
      'Top pages',
      ['page', 'views', 'visitors'],
      r.topPages.map((p) => [p.path, String(p.views), String(p.visitors)]),
    ),
    ...table(
      'Ratings',
      ['page', 'good', 'ok', 'bad'],
      r.ratings.map((p) => [p.path, String(p.good), String(p.ok), String(p.bad)]),
    ),
    ...table(
      'Comments',
      ['page', 'rating', 'comment'],
      r.comments.map((c) => [c.path, c.rating, c.comment.replace(/\s+/g, ' ')]),
    ),
    ...table(
      'Searches with no result',
      ['query', 'times'],
      r.emptySearches.map((q) => [q.query, String(q.times)]),
    ),
    ...table(
      'Broken URLs (page not found)',
      ['URL', 'views'],
      r.brokenUrls.map((b) => [b.path, String(b.views)]),
    ),
  ];
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

export async function runAdmin(
  argv: string[],
  out: (line: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
  errOut: (line: string) => void = console.error,
  readInput: () => Promise<string> = readStdin,
): Promise<number> {
  const args = [...argv];
  const group = args[0];
  if (!group || group === 'help' || group === '--help') {
    out(USAGE);
    return group ? 0 : 2;
  }
  let command: Command;
  try {
    command = parseCommand(args, out, errOut, readInput);
  } catch (err) {
    if (err instanceof UsageError) {
      errOut(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
  const config = loadConfig(env);
  const store = await openAdminStore(config);
  if ('inUse' in store) {
    errOut(
      `${store.inUse}\nThe admin command needs the embedded database to itself: stop the server, run the command, start the server again.`,
    );
    return 1;
  }
  try {
    return await command(store.db, config);
  } finally {
    await store.close();
  }
}

/**
 * Whether this file is the program being run. Compared as real paths turned into file URLs:
 * a checkout path with spaces (percent-encoded in the URL) or reached through a symlink
 * must still run the command rather than exit silently with nothing printed.
 */
function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

if (isMain()) {
  runAdmin(process.argv.slice(2)).then((code) => process.exit(code));
}

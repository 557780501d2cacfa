import { realpathSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ROLES, type Role } from '@quire/shared';
import { loadConfig } from '../config';
import { type AdminStore, createOrganization, issueToken, openAdminStore, revokeTokenValue, setMember, spaceArchive } from '../core/admin';
import type { ArchiveFormat } from '../core/content/export';

const USAGE = `Usage: npm run admin -- <command>

  org create <title> [--owner <email>]         create an organization; prints its id
  user create <email> --org <orgId> --role <role> [--name <display name>]
                                               add a user to an organization (role: ${ROLES.join(', ')}, or guest)
  user role <email> --org <orgId> --role <role>
                                               change a member's role
  token create <email>                         issue a token; printed once, alone on the last line
  token revoke <token>                         revoke a token
  export <spaceId> --out <file> [--change-request <id or number>]
                                               write the space (or a change request) as a folder of
                                               markdown, .zip or .tar.gz by the file's name

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
type Command = (db: Db) => Promise<number>;

/** Reads the arguments without touching the database, so bad usage is explained even while the server runs. */
function parseCommand(args: string[], out: (line: string) => void, errOut: (line: string) => void): Command {
  if (args[0] === 'export') return exportCommand(args.slice(1), out, errOut);
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

export async function runAdmin(
  argv: string[],
  out: (line: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
  errOut: (line: string) => void = console.error,
): Promise<number> {
  const args = [...argv];
  const group = args[0];
  if (!group || group === 'help' || group === '--help') {
    out(USAGE);
    return group ? 0 : 2;
  }
  let command: Command;
  try {
    command = parseCommand(args, out, errOut);
  } catch (err) {
    if (err instanceof UsageError) {
      errOut(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
  const store = await openAdminStore(loadConfig(env));
  if ('inUse' in store) {
    errOut(
      `${store.inUse}\nThe admin command needs the embedded database to itself: stop the server, run the command, start the server again.`,
    );
    return 1;
  }
  try {
    return await command(store.db);
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

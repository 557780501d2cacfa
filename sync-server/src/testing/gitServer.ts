import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

/** What the git CLI needs to run in a test: no user config, no prompts, a fixed identity. */
const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'Ada Writer',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada Writer',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
};

/** Runs the git CLI; answers its standard output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Bare repositories served by git's own `git http-backend` (smart HTTP, fetch and push)
 * from a Node server on 127.0.0.1, behind basic auth: what a git host does, so that the
 * server's git client is tested against the real protocol.
 */
export class GitServer {
  /** Bytes sent in answers so far (packfiles included). */
  bytesServed = 0;
  /** Requests seen, as `METHOD path?query`. */
  readonly requests: string[] = [];
  /** Objects in each pack pushed to the server, in order. */
  readonly pushedObjects: number[] = [];
  /** Called with each request (`METHOD path?query`) before git answers it: a test pushes "meanwhile" from here. */
  beforeRequest: ((request: string) => void) | undefined;

  private constructor(
    private readonly server: Server,
    readonly root: string,
    readonly user: string,
    readonly password: string,
  ) {}

  static async start(opts: { user?: string; password?: string } = {}): Promise<GitServer> {
    const root = mkdtempSync(join(tmpdir(), 'quire-git-server-'));
    const server = createServer();
    const g = new GitServer(server, root, opts.user ?? 'ada', opts.password ?? 's3cret-token');
    server.on('request', (req, res) => g.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return g;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The repository's URL, with credentials (`user:password@`) unless `auth` is false. */
  url(name: string, auth: boolean | { user: string; password: string } = true): string {
    const creds = auth === true ? { user: this.user, password: this.password } : auth || undefined;
    const base = new URL(`${this.origin}/${name}.git`);
    if (creds) {
      base.username = encodeURIComponent(creds.user);
      base.password = encodeURIComponent(creds.password);
    }
    return base.toString();
  }

  /** A bare repository `name`, accepting pushes over HTTP. */
  createBare(name: string): string {
    const dir = join(this.root, `${name}.git`);
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '--bare', '--quiet', '--initial-branch=main');
    git(dir, 'config', 'http.receivepack', 'true');
    return dir;
  }

  /**
   * A repository `name` whose `branch` holds `files` in one commit, made and pushed with the
   * git CLI (straight to the bare repository on disk).
   */
  createRepository(name: string, files: Record<string, Uint8Array | string>, opts: { branch?: string; message?: string } = {}): string {
    const bare = this.createBare(name);
    this.commit(name, files, { ...opts, into: bare });
    return bare;
  }

  /** One more commit on `branch` of `name` (made in a fresh clone, pushed with the git CLI). */
  commit(
    name: string,
    files: Record<string, Uint8Array | string | null>,
    opts: { branch?: string; message?: string; into?: string } = {},
  ): string {
    const bare = opts.into ?? join(this.root, `${name}.git`);
    const branch = opts.branch ?? 'main';
    const work = this.checkout(name, branch);
    try {
      for (const [path, content] of Object.entries(files)) {
        const at = join(work, path);
        if (content === null) {
          rmSync(at, { force: true });
          continue;
        }
        mkdirSync(dirname(at), { recursive: true });
        writeFileSync(at, content);
      }
      git(work, 'add', '-A');
      git(work, 'commit', '--quiet', '--allow-empty', '-m', opts.message ?? 'Docs');
      git(work, 'push', '--quiet', bare, `HEAD:refs/heads/${branch}`);
      return git(work, 'rev-parse', 'HEAD').trim();
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  /**
   * A working copy of `branch` (empty when the branch does not exist yet), cloned from the
   * bare repository on disk with the git CLI. The caller removes it.
   */
  checkout(name: string, branch = 'main'): string {
    const bare = join(this.root, `${name}.git`);
    const work = mkdtempSync(join(tmpdir(), 'quire-git-work-'));
    git(work, 'init', '--quiet', `--initial-branch=${branch}`);
    const heads = git(bare, 'for-each-ref', '--format=%(refname)', `refs/heads/${branch}`).trim();
    if (heads) {
      git(work, 'fetch', '--quiet', bare, `refs/heads/${branch}`);
      git(work, 'reset', '--quiet', '--hard', 'FETCH_HEAD');
    }
    return work;
  }

  /** `git log` of a branch in the bare repository: one line per commit, `<hash> <committer name> <committer email>|<subject>`. */
  log(name: string, branch = 'main'): { hash: string; committer: string; subject: string }[] {
    const out = git(join(this.root, `${name}.git`), 'log', '--format=%H %cn <%ce>|%s', `refs/heads/${branch}`).trim();
    return out
      ? out.split('\n').map((line) => {
          const [head, subject] = line.split('|') as [string, string];
          const space = head.indexOf(' ');
          return { hash: head.slice(0, space), committer: head.slice(space + 1), subject };
        })
      : [];
  }

  async close() {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    rmSync(this.root, { recursive: true, force: true });
  }

  private authorized(req: IncomingMessage): string | undefined {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return undefined;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const [user, password] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    return user === this.user && password === this.password ? user : undefined;
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => this.answer(req, Buffer.concat(chunks), res));
  }

  private answer(req: IncomingMessage, body: Buffer, res: ServerResponse) {
    const request = `${req.method} ${req.url}`;
    this.requests.push(request);
    this.beforeRequest?.(request);
    const user = this.authorized(req);
    if (!user) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' }).end('Authentication required\n');
      return;
    }
    const url = new URL(req.url ?? '/', this.origin);
    const cgi = spawn(HTTP_BACKEND, [], {
      env: {
        ...GIT_ENV,
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: this.root,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: user,
        REMOTE_ADDR: '127.0.0.1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    if (req.url?.endsWith('/git-receive-pack') && !req.headers['content-encoding']) {
      // The pack follows the commands: "PACK", a version and the number of objects.
      const at = body.indexOf('PACK');
      if (at >= 0 && body.length >= at + 12) this.pushedObjects.push(body.readUInt32BE(at + 8));
    }
    // git may answer (and exit) without reading a body it does not need.
    cgi.stdin.on('error', () => {});
    cgi.stdin.end(body);
    // The CGI answer: header lines, a blank line, then the body, streamed on as it comes.
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        this.bytesServed += chunk.length;
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      const endLf = head.indexOf('\n\n');
      const cut = end >= 0 ? { at: end, len: 4 } : endLf >= 0 ? { at: endLf, len: 2 } : undefined;
      if (!cut) return;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, cut.at).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      const rest = head.subarray(cut.at + cut.len);
      this.bytesServed += rest.length;
      if (rest.length) res.write(rest);
    });
    cgi.stdout.on('end', () => {
      if (!headersDone) res.writeHead(502);
      res.end();
    });
    cgi.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  }
}

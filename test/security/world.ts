import { rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { Role } from '@quire/shared';
import type { Db } from '../../sync-server/src/store/db';
import { addMember } from '../../sync-server/src/store/members';
import { createOrg } from '../../sync-server/src/store/organizations';
import { openPglite } from '../../sync-server/src/store/pglite';
import { openPostgres } from '../../sync-server/src/store/postgres';
import { createToken } from '../../sync-server/src/store/tokens';
import { ensureUser } from '../../sync-server/src/store/users';
import { freshPostgresUrl, preparedDataDir } from '../../sync-server/src/testing/databases';
import { type ServerProcess, spawnServer } from '../../sync-server/src/testing/processes';

export interface User {
  id: string;
  email: string;
  token: string;
}

/** One organization of the shared server: its admin and a writer. */
export interface Tenant {
  orgId: string;
  admin: User;
  writer: User;
}

export interface Answer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, with its own content type in `headers`. */
  raw?: string;
  headers?: Record<string, string>;
}

/**
 * A shared server as a hostile tenant meets it: a real server process on its own database
 * with two organizations, A (the victim) and B (the attacker), each with an admin and a
 * writer. `both` is a member of both. Users and tokens are written to the database before
 * the process starts (the API cannot create users); everything else goes through HTTP.
 */
export class World {
  private others: { server: ServerProcess; dataDir: string }[] = [];

  private constructor(
    readonly server: ServerProcess,
    readonly dataDir: string,
    readonly a: Tenant,
    readonly b: Tenant,
    readonly both: User,
    private drop: () => Promise<void>,
    private env: Record<string, string>,
  ) {}

  static async start(env: Record<string, string> = {}, prepare?: (dataDir: string) => void): Promise<World> {
    const dataDir = preparedDataDir('quire-security-');
    let db: Db;
    let drop = async () => {};
    const serverEnv: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'error', ...env };
    if (process.env.DATABASE_URL) {
      const fresh = await freshPostgresUrl();
      db = await openPostgres(fresh.url, 2);
      drop = fresh.drop;
      serverEnv.DATABASE_URL = fresh.url;
    } else {
      // The prepared directory holds the migrated database already.
      db = await openPglite(join(dataDir, 'pgdata'), undefined, {
        sharedBuffersMb: Number(process.env.PGLITE_SHARED_BUFFERS_MB) || undefined,
        // The tests' own handle, on their thread: starting a database thread is a second of CPU.
        thread: false,
      });
      const { migrate } = await import('../../sync-server/src/store/migrate');
      await migrate(db);
    }
    let n = 0;
    const user = async (email: string): Promise<User> => {
      const u = await ensureUser(db, email);
      return { id: u.id, email, token: await createToken(db, u.id) };
    };
    const tenant = async (domain: string): Promise<Tenant> => {
      const admin = await user(`admin@${domain}`);
      const org = await createOrg(db, `Tenant ${++n}`, admin.id);
      const writer = await user(`writer@${domain}`);
      await addMember(db, org.id, writer.id, 'edit' as Role);
      return { orgId: org.id, admin, writer };
    };
    const a = await tenant('a-corp.test');
    const b = await tenant('b-corp.test');
    const both = await user('both@c-corp.test');
    await addMember(db, a.orgId, both.id, 'edit');
    await addMember(db, b.orgId, both.id, 'edit');
    await db.close();
    prepare?.(dataDir);
    const server = await spawnServer(serverEnv);
    return new World(server, dataDir, a, b, both, drop, serverEnv);
  }

  get url(): string {
    return this.server.url;
  }

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    // node:http, not fetch: fetch would drop a Host header and normalize a path like `//evil.example/`.
    const res = await new Promise<{ status: number; text: string; headers: Headers }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: this.server.port, method, path, headers }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(r.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
          resolve({ status: r.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: h });
        });
        r.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
    const text = res.text;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  }

  get = (path: string, token?: string, headers?: Record<string, string>) => this.request('GET', path, { token, headers });
  post = (path: string, token: string, body?: unknown) => this.request('POST', path, { token, body });
  patch = (path: string, token: string, body?: unknown) => this.request('PATCH', path, { token, body });
  put = (path: string, token: string, body?: unknown) => this.request('PUT', path, { token, body });
  delete = (path: string, token: string) => this.request('DELETE', path, { token });

  /** A space of the tenant, created by its admin. */
  async space(t: Tenant, title = 'Private plans'): Promise<string> {
    const res = await this.post(`/v1/orgs/${t.orgId}/spaces`, t.admin.token, { title });
    if (res.status !== 201 && res.status !== 200) throw new Error(`creating a space answered ${res.status}: ${res.text}`);
    return res.body.id;
  }

  /**
   * Another instance of the server on the same PostgreSQL database, with a data directory of
   * its own (the embedded database serves one process: undefined there).
   */
  async anotherInstance(): Promise<ServerProcess | undefined> {
    if (!this.env.DATABASE_URL) return undefined;
    const dataDir = preparedDataDir('quire-security-');
    const server = await spawnServer({ ...this.env, DATA_DIR: dataDir });
    this.others.push({ server, dataDir });
    return server;
  }

  async stop() {
    for (const other of this.others) {
      other.server.proc.kill('SIGKILL');
      await other.server.exited;
      rmSync(other.dataDir, { recursive: true, force: true });
    }
    this.server.proc.kill('SIGKILL');
    await this.server.exited;
    await this.drop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

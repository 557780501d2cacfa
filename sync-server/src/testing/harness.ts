import type { Role } from '@quire/shared';
import { loadConfig, type Config } from '../config';
import { flushSiteVisits } from '../core/insights/commands';
import { stopInsightsRecorder } from '../core/insights/recorder';
import { createApp } from '../http/app';
import type { Deps } from '../http/env';
import { createLogger } from '../logger';
import type { Db } from '../store/db';
import { addMember } from '../store/members';
import { createOrg } from '../store/organizations';
import { createToken } from '../store/tokens';
import { ensureUser } from '../store/users';
import { freshTestDb } from './databases';

/**
 * What test servers read their settings from: defaults, but for passwords hashed at a cost
 * a thirty-second of a production password's (tests set and check hundreds of them).
 */
export const TEST_ENV = { NODE_ENV: 'test', PASSWORD_SCRYPT_N: '1024' } as const;

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Raw body (text or bytes), sent as is: malformed input, file uploads. */
  raw?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

/**
 * One in-process server on a fresh database, for one test file. Requests go straight to
 * the app (no sockets), which keeps route tests fast.
 */
export class TestServer {
  private counter = 0;
  constructor(
    readonly db: Db,
    readonly deps: Deps,
    readonly app: ReturnType<typeof createApp>,
  ) {}

  static async start(overrides: Partial<Config> = {}): Promise<TestServer> {
    const db = await freshTestDb();
    const config = { ...loadConfig(TEST_ENV), publicUrl: 'http://quire.test', ...overrides };
    const deps: Deps = { db, config, log: createLogger(process.env.LOG_LEVEL ?? 'silent') };
    return new TestServer(db, deps, createApp(deps));
  }

  async request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.app.request(`http://quire.test${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get = <T = any>(path: string, token?: string) => this.request<T>('GET', path, { token });
  post = <T = any>(path: string, token: string, body?: unknown) => this.request<T>('POST', path, { token, body });
  patch = <T = any>(path: string, token: string, body?: unknown) => this.request<T>('PATCH', path, { token, body });
  put = <T = any>(path: string, token: string, body?: unknown) => this.request<T>('PUT', path, { token, body });
  delete = <T = any>(path: string, token: string) => this.request<T>('DELETE', path, { token });

  /** A new user with a token; no organization. */
  async user(name?: string): Promise<TestUser> {
    const email = `${name ?? 'user'}-${++this.counter}-${Math.random().toString(36).slice(2, 7)}@example.com`;
    const u = await ensureUser(this.db, email, name);
    return { id: u.id, email, token: await createToken(this.db, u.id) };
  }

  /** A new organization whose admin is returned, plus a member per requested role. */
  async org(roles: (Role | null)[] = []): Promise<{ orgId: string; admin: TestUser; members: TestUser[] }> {
    const admin = await this.user('admin');
    const org = await createOrg(this.db, `Org ${++this.counter}`, admin.id);
    const members: TestUser[] = [];
    for (const role of roles) {
      const m = await this.user(role ?? 'guest');
      await addMember(this.db, org.id, m.id, role);
      members.push(m);
    }
    return { orgId: org.id, admin, members };
  }

  /** A member with `role` added to an existing organization. */
  async member(orgId: string, role: Role | null): Promise<TestUser> {
    const m = await this.user(role ?? 'guest');
    await addMember(this.db, orgId, m.id, role);
    return m;
  }

  /** Writes what published sites recorded and still hold in memory. */
  flushInsights() {
    return flushSiteVisits({ deps: this.deps });
  }

  async close() {
    await stopInsightsRecorder(this.db);
    await this.db.close();
  }
}

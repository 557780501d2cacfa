import * as fs from 'node:fs';
import * as git from 'isomorphic-git';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { FetchError, guardedFetch } from '../security/fetchGuard';
import type { GitCredentials } from './address';

/**
 * Why an operation ended without doing its work, worded for the person who asked (it is
 * what `git/info` shows as `error`): never with credentials.
 */
export class GitFailure extends Error {
  constructor(
    message: string,
    readonly state: 'failure' | 'timeout' = 'failure',
  ) {
    super(message);
  }
}

export interface RemoteLimits {
  allowPrivate: boolean;
  /** Bytes all of one operation's answers may bring together (`GIT_MAX_BYTES`). */
  maxBytes: number;
  /** When the operation must be over (ms since the epoch), and how long it was given (`GIT_TIMEOUT_MS`). */
  deadline: number;
  timeoutMs: number;
}

export function timedOut(limits: Pick<RemoteLimits, 'timeoutMs'>): GitFailure {
  return new GitFailure(`the operation took longer than GIT_TIMEOUT_MS (${limits.timeoutMs} ms) and was stopped`, 'timeout');
}

/** Throws the timeout failure once the operation's deadline has passed. */
export function checkDeadline(limits: Pick<RemoteLimits, 'deadline' | 'timeoutMs'>): void {
  if (Date.now() >= limits.deadline) throw timedOut(limits);
}

/**
 * isomorphic-git's HTTP client, built on the fetch guard: every request (redirects too)
 * refuses loopback, private and metadata addresses unless allowed, all of one operation's
 * answers share one byte budget (the body stream is counted and the request aborted past
 * it) and one deadline.
 */
class GuardedTransport implements HttpClient {
  private bytesLeft: number;
  /** The guard's refusal, if one ended a request (isomorphic-git may wrap what it throws). */
  failure: FetchError | undefined;

  constructor(private readonly limits: RemoteLimits) {
    this.bytesLeft = limits.maxBytes;
  }

  request = async (req: GitHttpRequest): Promise<GitHttpResponse> => {
    const timeoutMs = this.limits.deadline - Date.now();
    if (timeoutMs <= 0) throw timedOut(this.limits);
    const method = (req.method ?? 'GET').toUpperCase();
    const headers = { ...req.headers };
    try {
      const res = await guardedFetch(req.url, {
        allowPrivate: this.limits.allowPrivate,
        timeoutMs,
        maxBytes: this.bytesLeft,
        ...(method === 'POST' ? { send: { method: 'POST' as const, body: await collect(req.body), headers } } : { headers }),
      });
      this.bytesLeft -= res.body.length;
      const flat: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      return {
        url: req.url,
        method,
        statusCode: res.status,
        statusMessage: '',
        headers: flat,
        body: once(new Uint8Array(res.body.buffer, res.body.byteOffset, res.body.byteLength)),
      };
    } catch (err) {
      if (err instanceof FetchError) this.failure = err;
      throw err;
    }
  };
}

async function collect(body: GitHttpRequest['body']): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function* once(bytes: Uint8Array): AsyncIterableIterator<Uint8Array> {
  yield bytes;
}

/** A commit's files by path, and its folders' tree ids by path (`''`: the root). */
interface Listing {
  files: Map<string, TreeEntry>;
  folders: Map<string, string>;
}

/**
 * Listings of the commits read or written lately, by store and commit (a commit's tree never
 * changes): the next export of a space starts from the commit it pushed last, without
 * reading its trees again.
 */
const listings = new Map<string, Listing>();
const LISTINGS_KEPT = 16;

function keepListing(key: string, listing: Listing): void {
  listings.delete(key);
  listings.set(key, listing);
  if (listings.size > LISTINGS_KEPT) listings.delete(listings.keys().next().value as string);
}

/** An entry of a commit's tree, by path from the repository's root. */
export interface TreeEntry {
  oid: string;
  mode: string;
  type: 'blob' | 'tree' | 'commit';
}

/**
 * One operation's side of a repository: its refs, a shallow fetch of one of them into a
 * bare repository in `gitdir` (the space's object store, kept between operations: see
 * `store.ts`), the objects read from it and written to it, and the push. Credentials are
 * handed to isomorphic-git through `onAuth` (never put in the URL, the repository's config
 * or a message).
 */
export class Remote {
  private readonly transport: GuardedTransport;
  /** isomorphic-git's cache of parsed pack indexes and packs: without it every object read loads its pack again. */
  private readonly cache = {};
  /** The tree ids of each folder of the commits read with `tree`, by folder path (`''`: the root). */
  private readonly folders = new Map<string, Map<string, string>>();
  /** The listing `writeTrees` wrote last: the commit written with its tree is listed as it. */
  private built: Listing | undefined;

  private constructor(
    readonly url: string,
    private readonly credentials: GitCredentials | undefined,
    readonly gitdir: string,
    private readonly limits: RemoteLimits,
  ) {
    this.transport = new GuardedTransport(limits);
  }

  static async open(url: string, credentials: GitCredentials | undefined, gitdir: string, limits: RemoteLimits): Promise<Remote> {
    await git.init({ fs, dir: gitdir, gitdir, bare: true, defaultBranch: 'main' });
    await git.addRemote({ fs, gitdir, remote: 'origin', url, force: true });
    return new Remote(url, credentials, gitdir, limits);
  }

  private get auth() {
    const credentials = this.credentials;
    return {
      // Sent with the first request: a server that would answer 401 first costs no round trip per request.
      headers: (credentials
        ? { Authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}` }
        : {}) as Record<string, string>,
      onAuth: () => (credentials ? { username: credentials.username, password: credentials.password } : { cancel: true }),
      // The same credentials refused twice: stop asking.
      onAuthFailure: () => ({ cancel: true }),
    };
  }

  /** A repository's branches and tags, asked without a local repository (a poll). */
  static async refsOf(url: string, credentials: GitCredentials | undefined, limits: RemoteLimits): Promise<Map<string, string>> {
    return new Remote(url, credentials, '', limits).refs();
  }

  /** The repository's branches and tags, by full ref name. */
  async refs(): Promise<Map<string, string>> {
    const refs = await this.run(() => git.listServerRefs({ http: this.transport, url: this.url, protocolVersion: 1, ...this.auth }));
    return new Map(refs.map((r) => [r.ref, r.oid]));
  }

  /**
   * Brings one ref's commit (alone: depth 1) into the store; answers its id. A commit the
   * store already holds (`oid`, as the ref listing gave it) is not fetched again; else only
   * what the store's last commit of the ref does not hold is sent (it is told as a `have`).
   */
  async fetch(ref: string, oid?: string): Promise<string> {
    if (oid && (await this.has(oid))) return oid;
    const result = await this.run(() =>
      git.fetch({
        fs,
        cache: this.cache,
        http: this.transport,
        gitdir: this.gitdir,
        url: this.url,
        ref,
        remoteRef: ref,
        singleBranch: true,
        depth: 1,
        tags: false,
        ...this.auth,
      }),
    );
    if (!result.fetchHead) throw new GitFailure(`ref not found: ${shortRef(ref)}`);
    await this.remember(ref, result.fetchHead);
    return result.fetchHead;
  }

  /** Whether the store holds this commit (and so its whole tree: a fetch or an export brought both). */
  async has(commit: string): Promise<boolean> {
    try {
      await git.readCommit({ fs, cache: this.cache, gitdir: this.gitdir, oid: commit });
      return true;
    } catch {
      return false;
    }
  }

  /** The store's own ref of the branch: the next fetch names it as a `have`, so only what is new comes. */
  private async remember(ref: string, commit: string): Promise<void> {
    if (!ref.startsWith('refs/')) return;
    await git.writeRef({ fs, gitdir: this.gitdir, ref, value: commit, force: true });
  }

  /** Every blob, link and submodule of a commit's tree, by path. */
  async tree(commit: string): Promise<Map<string, TreeEntry>> {
    const known = listings.get(`${this.gitdir}\0${commit}`);
    if (known) {
      this.folders.set(commit, known.folders);
      return known.files;
    }
    const { commit: c } = await git.readCommit({ fs, cache: this.cache, gitdir: this.gitdir, oid: commit });
    const out = new Map<string, TreeEntry>();
    const folders = new Map<string, string>();
    this.folders.set(commit, folders);
    const walk = async (oid: string, prefix: string) => {
      folders.set(prefix, oid);
      const { tree } = await git.readTree({ fs, cache: this.cache, gitdir: this.gitdir, oid });
      for (const e of tree) {
        const path = prefix ? `${prefix}/${e.path}` : e.path;
        if (e.type === 'tree') await walk(e.oid, path);
        else out.set(path, { oid: e.oid, mode: e.mode, type: e.type });
      }
    };
    await walk(c.tree, '');
    keepListing(`${this.gitdir}\0${commit}`, { files: out, folders });
    return out;
  }

  async treeOf(commit: string): Promise<string> {
    const root = this.folders.get(commit)?.get('');
    if (root) return root;
    return (await git.readCommit({ fs, cache: this.cache, gitdir: this.gitdir, oid: commit })).commit.tree;
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    return (await git.readBlob({ fs, cache: this.cache, gitdir: this.gitdir, oid })).blob;
  }

  async writeBlob(bytes: Uint8Array): Promise<string> {
    return git.writeBlob({ fs, gitdir: this.gitdir, blob: bytes });
  }

  /**
   * Writes the trees of a whole file listing, bottom up; answers the root tree's id. Given
   * the commit it was made from (read with `tree`) and the paths changed since, a folder
   * holding none of them keeps that commit's tree, unwritten: only the trees above a
   * change are written.
   */
  async writeTrees(entries: Map<string, TreeEntry>, from?: { commit: string; changed: Iterable<string> }): Promise<string> {
    const kept = from ? (this.folders.get(from.commit) ?? new Map<string, string>()) : new Map<string, string>();
    const dirty = new Set<string>();
    for (const path of from?.changed ?? []) {
      const parts = path.split('/');
      for (let i = 0; i < parts.length; i++) dirty.add(parts.slice(0, i).join('/'));
    }
    interface Folder {
      files: Map<string, TreeEntry>;
      folders: Map<string, Folder>;
    }
    const root: Folder = { files: new Map(), folders: new Map() };
    for (const [path, entry] of entries) {
      const parts = path.split('/');
      let at = root;
      for (const part of parts.slice(0, -1)) {
        let next = at.folders.get(part);
        if (!next) at.folders.set(part, (next = { files: new Map(), folders: new Map() }));
        at = next;
      }
      at.files.set(parts[parts.length - 1] as string, entry);
    }
    // The new listing's folders: those kept (a folder gone stays listed, harmlessly: nothing asks for it), then those written.
    const built = new Map(kept);
    const write = async (folder: Folder, path: string): Promise<string> => {
      const unchanged = kept.get(path);
      if (unchanged && !dirty.has(path)) return unchanged;
      const tree: git.TreeEntry[] = [];
      for (const [name, sub] of folder.folders) {
        tree.push({ mode: '040000', path: name, oid: await write(sub, path ? `${path}/${name}` : name), type: 'tree' });
      }
      for (const [name, e] of folder.files) tree.push({ mode: e.mode, path: name, oid: e.oid, type: e.type });
      const oid = await git.writeTree({ fs, gitdir: this.gitdir, tree });
      built.set(path, oid);
      return oid;
    };
    const oid = await write(root, '');
    this.built = { files: entries, folders: built };
    return oid;
  }

  async writeCommit(c: {
    tree: string;
    parents: string[];
    message: string;
    author: { name: string; email: string };
    committer: { name: string; email: string };
  }): Promise<string> {
    const timestamp = Math.floor(Date.now() / 1000);
    const oid = await git.writeCommit({
      fs,
      gitdir: this.gitdir,
      commit: {
        tree: c.tree,
        parent: c.parents,
        message: c.message.endsWith('\n') ? c.message : `${c.message}\n`,
        author: { ...c.author, timestamp, timezoneOffset: 0 },
        committer: { ...c.committer, timestamp, timezoneOffset: 0 },
      },
    });
    if (this.built?.folders.get('') === c.tree) keepListing(`${this.gitdir}\0${oid}`, this.built);
    return oid;
  }

  /**
   * Pushes `commit` to `ref`. Answers `rejected` when the ref moved on the remote since it
   * was fetched (not a fast-forward): the caller fetches again and retries.
   */
  async push(commit: string, ref: string, force: boolean): Promise<'pushed' | 'rejected'> {
    try {
      const result = await this.run(() =>
        git.push({
          fs,
          cache: this.cache,
          http: this.transport,
          gitdir: this.gitdir,
          url: this.url,
          ref: commit,
          remoteRef: ref,
          force,
          ...this.auth,
        }),
      );
      const refused = Object.entries(result.refs).find(([, r]) => !r.ok);
      if (!result.ok || refused) {
        const why = refused?.[1].error || (typeof result.error === 'string' ? result.error : '') || 'refused';
        if (/fast.?forward|fetch first|stale/i.test(why)) return 'rejected';
        throw new GitFailure(`the push to ${shortRef(ref)} of ${this.url} was refused: ${why}`);
      }
      await this.remember(ref, commit);
      return 'pushed';
    } catch (err) {
      if (err instanceof git.Errors.PushRejectedError) return 'rejected';
      throw err;
    }
  }

  /** Runs a request of isomorphic-git, turning what went wrong into a failure a person can act on. */
  private async run<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw this.explain(err);
    }
  }

  private explain(err: unknown): unknown {
    if (err instanceof GitFailure) return err;
    const guard = err instanceof FetchError ? err : this.transport.failure;
    if (guard) {
      switch (guard.failure) {
        case 'REFUSED':
          return new GitFailure(
            `fetching ${this.url} was refused: loopback and private addresses are not fetched unless ALLOW_PRIVATE_FETCH=true`,
          );
        case 'TOO_LARGE':
          return new GitFailure(`repository larger than GIT_MAX_BYTES (${this.limits.maxBytes} bytes): ${this.url}`);
        case 'TIMEOUT':
          return timedOut(this.limits);
        default:
          return new GitFailure(`could not reach ${this.url}: ${guard.message}`);
      }
    }
    if (err instanceof git.Errors.UserCanceledError) return new GitFailure(`authentication failed for ${this.url}`);
    if (err instanceof git.Errors.HttpError) {
      const status = (err.data as { statusCode?: number }).statusCode ?? 0;
      if (status === 401) return new GitFailure(`authentication failed for ${this.url}`);
      if (status === 403) return new GitFailure(`access denied to ${this.url}: the credentials may not do this on the repository`);
      if (status === 404) return new GitFailure(`repository not found: ${this.url}`);
      return new GitFailure(`${this.url} answered HTTP ${status}`);
    }
    if (err instanceof git.Errors.SmartHttpError) return new GitFailure(`${this.url} is not a git repository served over smart HTTP`);
    if (err instanceof git.Errors.NotFoundError)
      return new GitFailure(`ref not found in ${this.url}: ${(err.data as { what?: string }).what}`);
    return err;
  }
}

/** `refs/heads/main` → `main`, as people name a branch. */
export function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, '');
}

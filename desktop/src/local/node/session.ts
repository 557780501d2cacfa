import { userInfo } from 'node:os';
import type { SessionState, SyncStatus, UserSummary } from '../../common/ipc';
import { type BrowserSignIn, startBrowserSignIn } from '../browserSignIn';
import type { CredentialStore } from '../credentials';
import { RemoteError, ServerClient, UnreachableError, normalizeServerUrl } from '../ServerClient';
import { deleteMeta, getMeta, setMeta } from '../store/catalog';
import { pendingPageCount, unsentEdits } from '../store/docs';
import { countByState } from '../store/outbox';
import { LocalError, type NodeContext, type SessionPart, type SessionMode } from './context';

type Mode = SessionMode;

export const LOCAL_USER: UserSummary = { id: 'local', displayName: safeUserName() };

function safeUserName(): string {
  try {
    const name = userInfo().username;
    return name ? name.charAt(0).toUpperCase() + name.slice(1) : 'You';
  } catch {
    return 'You';
  }
}

function serverAddress(url: string): string {
  try {
    return normalizeServerUrl(url);
  } catch {
    throw new LocalError('The server address is not a valid URL.');
  }
}

/**
 * Who the user is and how the node talks to a server: signing in and out, working
 * offline, probing an unreachable server, and the sync status the windows show.
 */
export class Session implements SessionPart {
  mode: Mode = 'none';
  private client?: ServerClient;
  user: UserSummary = LOCAL_USER;
  private workOffline = false;
  /** undefined until the first answer (or failure) from the server. */
  reachable: boolean | undefined;
  private unauthorized = false;
  private lastError?: string;
  private probeTimer?: NodeJS.Timeout;
  private statusTimer?: NodeJS.Timeout;
  /** A sign-in through the system browser waiting for the browser to come back. */
  private browserSignIn?: BrowserSignIn;

  constructor(
    private readonly ctx: NodeContext,
    private readonly credentials: CredentialStore,
  ) {}

  private get autoSync() {
    return this.ctx.options.autoSync ?? true;
  }

  /** Picks up where the last run stopped: mode, server, user, offline choice. */
  async restore() {
    const db = this.ctx.db;
    this.mode = (await getMeta<Mode>(db, 'mode')) ?? 'none';
    this.workOffline = (await getMeta<boolean>(db, 'workOffline')) ?? false;
    if (this.mode === 'server') {
      const creds = await this.credentials.load();
      const user = await getMeta<UserSummary>(db, 'user');
      if (creds) {
        this.client = new ServerClient(creds.url, creds.token);
        if (user) this.user = user;
      } else {
        // The token is gone (another machine's keychain, signed out elsewhere): local until signed in again.
        this.unauthorized = true;
        this.lastError = 'Sign in again to sync with the server.';
      }
    }
    if (this.client && this.autoSync && !this.workOffline) void this.probe();
  }

  async state(): Promise<SessionState> {
    return {
      mode: this.mode,
      server: this.client && this.mode === 'server' ? { url: this.client.baseUrl, user: this.user } : undefined,
      credentialsEncrypted: this.credentials.encrypted,
      user: this.user,
    };
  }

  /** Signs in: the token is checked against the server before anything is stored. */
  async connect(url: string, token: string): Promise<SessionState> {
    const normalized = serverAddress(url);
    const client = new ServerClient(normalized, token.trim());
    let me: { id: string; displayName?: string; email?: string };
    try {
      me = await client.get('/v1/user');
    } catch (err) {
      if (err instanceof RemoteError && err.status === 401) throw new LocalError('The server refused this token.');
      if (err instanceof UnreachableError)
        throw new LocalError(`Cannot reach ${normalized} (${err.message}). Check the address, or work locally.`);
      throw new LocalError((err as Error).message);
    }
    await this.credentials.save({ url: normalized, token: token.trim() });
    this.client = client;
    this.user = { id: me.id, displayName: me.displayName || me.email || 'You', email: me.email };
    this.mode = 'server';
    this.unauthorized = false;
    this.lastError = undefined;
    await setMeta(this.ctx.db, 'mode', 'server');
    await setMeta(this.ctx.db, 'user', this.user);
    await setMeta(this.ctx.db, 'server', normalized);
    this.setReachable(true);
    await this.ctx.catalog.refresh().catch(() => {});
    return this.state();
  }

  /**
   * Starts signing in through the system browser: answers the server's sign-in page for a
   * window to open. When the browser comes back the token is stored as a pasted one is
   * (`connect`), whether or not a window still waits (`awaitBrowserSignIn`).
   */
  async startBrowserSignIn(url: string): Promise<{ authorizeUrl: string }> {
    const normalized = serverAddress(url);
    try {
      await fetch(`${normalized}/healthz`, { signal: AbortSignal.timeout(5000) });
    } catch (err) {
      throw new LocalError(`Cannot reach ${normalized} (${new UnreachableError(err).message}). Check the address, or work locally.`);
    }
    this.browserSignIn?.cancel();
    const attempt = await startBrowserSignIn(normalized, {
      onToken: async (token) => {
        await this.connect(normalized, token);
      },
    });
    attempt.done.catch(() => {});
    this.browserSignIn = attempt;
    return { authorizeUrl: attempt.authorizeUrl };
  }

  /** Waits for the browser sign-in started last, then answers the signed-in state. */
  async awaitBrowserSignIn(): Promise<SessionState> {
    const attempt = this.browserSignIn;
    if (!attempt) throw new LocalError('No sign-in is waiting for the browser. Start it again.');
    try {
      await attempt.done;
    } catch (err) {
      throw new LocalError((err as Error).message);
    } finally {
      if (this.browserSignIn === attempt) this.browserSignIn = undefined;
    }
    return this.state();
  }

  /** Gives up the browser sign-in: its redirect is no longer listened for. */
  async cancelBrowserSignIn(): Promise<Record<string, never>> {
    this.browserSignIn?.cancel();
    return {};
  }

  /** Works with no server: spaces live on this machine until published. */
  async useLocal(): Promise<SessionState> {
    if (this.mode === 'none') {
      this.mode = 'local';
      await setMeta(this.ctx.db, 'mode', 'local');
    }
    this.scheduleStatus();
    return this.state();
  }

  /** Forgets the token; everything local stays, queued changes wait for the next sign-in. */
  async signOut(): Promise<SessionState> {
    await this.credentials.clear();
    this.client = undefined;
    this.ctx.outbox.stop();
    this.ctx.branches.disconnectAll();
    this.mode = 'local';
    this.user = LOCAL_USER;
    await setMeta(this.ctx.db, 'mode', 'local');
    await deleteMeta(this.ctx.db, 'user');
    this.scheduleStatus();
    return this.state();
  }

  /** The REST client while signed in and not working offline. */
  get server(): ServerClient | undefined {
    return this.mode === 'server' && !this.workOffline ? this.client : undefined;
  }

  /** "Work offline": stop talking to the server without signing out. */
  async setWorkOffline(offline: boolean): Promise<SyncStatus> {
    this.workOffline = offline;
    await setMeta(this.ctx.db, 'workOffline', offline);
    if (offline) {
      this.ctx.outbox.stop();
      clearTimeout(this.probeTimer);
      this.ctx.branches.disconnectAll();
      this.reachable = false;
    } else {
      // Not known to be reachable or not until the probe answers: "Connecting", never "Offline"
      // beside a switch that says online.
      this.reachable = undefined;
      this.scheduleStatus();
      await this.probe();
    }
    this.scheduleStatus();
    return this.status();
  }

  /** The outbox was told the token is refused: replay waits for a new sign-in. */
  refused(message: string) {
    this.unauthorized = true;
    this.lastError = message;
    this.scheduleStatus();
  }

  /** A request failed for want of a server: remember why, and look for it again. */
  lost(message: string) {
    this.lastError = message;
    this.setReachable(false);
  }

  /** Asks the server whether it is there; on success starts syncing and replaying. */
  async probe(): Promise<boolean> {
    clearTimeout(this.probeTimer);
    const client = this.server;
    if (!client || this.ctx.closed) return false;
    try {
      await client.request('GET', '/v1/user', { timeoutMs: 5000 });
      this.unauthorized = false;
      this.setReachable(true);
      return true;
    } catch (err) {
      if (err instanceof RemoteError && err.status === 401) {
        this.unauthorized = true;
        this.lastError = 'The server no longer accepts this token. Sign in again.';
      } else {
        this.lastError = (err as Error).message;
      }
      this.setReachable(false);
      return false;
    }
  }

  setReachable(reachable: boolean) {
    const was = this.reachable;
    this.reachable = reachable;
    clearTimeout(this.probeTimer);
    if (reachable && this.server) {
      this.lastError = undefined;
      if (was !== true) {
        this.ctx.outbox.start();
        this.ctx.branches.connectAll();
        void this.ctx.catalog.refresh().catch(() => {});
        void this.ctx.branches.pushWaiting().catch(() => {});
      }
    } else if (!reachable && this.server && !this.unauthorized && !this.ctx.closed) {
      this.ctx.outbox.stop();
      this.probeTimer = setTimeout(() => void this.probe(), this.ctx.options.probeIntervalMs ?? 3000);
      this.probeTimer.unref?.();
    }
    this.scheduleStatus();
  }

  async status(): Promise<SyncStatus> {
    const counts = await countByState(this.ctx.db);
    const unsent = this.mode === 'server' ? await unsentEdits(this.ctx.db) : 0;
    const pages = unsent > 0 ? await pendingPageCount(this.ctx.db) : 0;
    let connection: SyncStatus['connection'];
    if (this.mode !== 'server') connection = 'local';
    else if (this.unauthorized) connection = 'unauthorized';
    else if (this.workOffline || this.reachable === false) connection = 'offline';
    else if (this.reachable === undefined) connection = 'connecting';
    else connection = this.ctx.branches.anyConnecting() ? 'connecting' : 'online';
    return {
      mode: this.mode,
      connection,
      workOffline: this.workOffline,
      pending: counts.pending + unsent,
      pendingMutations: counts.pending,
      unsentEdits: unsent,
      pendingPages: pages,
      pendingFiles: counts.files,
      failed: counts.failed,
      lastError: this.lastError,
    };
  }

  /** Status changes come in bursts (a sync touches many rows): tell the windows once. */
  scheduleStatus() {
    if (this.statusTimer || this.ctx.closed) return;
    this.statusTimer = setTimeout(async () => {
      this.statusTimer = undefined;
      if (this.ctx.closed) return;
      try {
        this.ctx.events.emit('status', await this.status());
      } catch {
        // closing
      }
    }, 30);
  }

  stop() {
    this.browserSignIn?.cancel();
    clearTimeout(this.probeTimer);
    clearTimeout(this.statusTimer);
  }
}

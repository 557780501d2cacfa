import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { IpcEventName, IpcEventPayload } from '../common/ipc';
import type { CredentialStore } from '../local/credentials';
import type { InvokeResult } from '../local/IpcSession';
import type { SessionFactory, WindowSession } from '../local/windowSession';
import type { FromNode, ToNode } from './protocol';

export type BackendState = 'starting' | 'ready' | 'lost';

export interface SupervisorOptions {
  /** The LocalNode process's entry (nodeProcess.ts, or its bundle). */
  entry: string;
  dataDir: string;
  credentials: CredentialStore;
  /** Node flags for the child (`--import tsx` when running the TypeScript sources). */
  execArgv?: string[];
  /** Electron's own binary runs the child as plain Node (ELECTRON_RUN_AS_NODE). */
  execPath?: string;
  env?: NodeJS.ProcessEnv;
  /** First wait before a restart; doubles on quick successive deaths, up to 5 s. */
  restartDelayMs?: number;
}

type Send = <E extends IpcEventName>(event: E, payload: IpcEventPayload<E>) => void;

interface Session {
  send: Send;
  waiting: Map<number, (result: InvokeResult) => void>;
}

const LOST: InvokeResult = {
  ok: false,
  error: { code: 'failed', message: 'The local service stopped while doing this; it is restarting. Try again in a moment.' },
};

/**
 * Runs the LocalNode in a child process and keeps it running: when it dies it is started
 * again (after a short, growing pause), windows are told at once that their backend is gone
 * and when it is back, and their sessions are opened again in the new process. Requests
 * made while it restarts wait for it.
 */
export class Supervisor extends EventEmitter<{ state: [BackendState]; exit: [code: number | null, signal: string | null] }> {
  private child?: ChildProcess;
  private state: BackendState = 'starting';
  private readonly sessions = new Map<number, Session>();
  private readonly queued: ToNode[] = [];
  private nextSid = 1;
  private nextId = 1;
  private closed = false;
  private delay: number;
  private startedAt = 0;
  private restartTimer?: NodeJS.Timeout;
  private firstReady?: { resolve: () => void };

  constructor(private readonly opts: SupervisorOptions) {
    super();
    this.delay = opts.restartDelayMs ?? 200;
  }

  /** Starts the LocalNode; resolves once it is ready the first time. */
  start(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.firstReady = { resolve };
      this.spawn();
    });
  }

  get backendState(): BackendState {
    return this.state;
  }

  /** The LocalNode's process id (tests kill it). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private spawn() {
    if (this.closed) return;
    this.startedAt = Date.now();
    const child = fork(this.opts.entry, [], {
      execArgv: this.opts.execArgv ?? [],
      execPath: this.opts.execPath,
      env: {
        ...(this.opts.env ?? process.env),
        QUIRE_DATA_DIR: this.opts.dataDir,
        QUIRE_CREDENTIALS_ENCRYPTED: this.opts.credentials.encrypted ? '1' : '0',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    child.on('message', (message: FromNode) => this.onMessage(child, message));
    child.on('error', (err) => console.error('[quire] the local service', err));
    child.once('exit', (code, signal) => this.onExit(child, code, signal));
  }

  private setState(state: BackendState) {
    if (this.state === state) return;
    this.state = state;
    this.emit('state', state);
    for (const session of this.sessions.values()) session.send('backend', { state });
  }

  private post(child: ChildProcess | undefined, message: ToNode) {
    if (child?.connected) child.send(message);
  }

  private onMessage(child: ChildProcess, message: FromNode) {
    if (child !== this.child) return;
    switch (message.type) {
      case 'ready':
        for (const sid of this.sessions.keys()) this.post(child, { type: 'open', sid });
        for (const m of this.queued.splice(0)) this.post(child, m);
        this.setState('ready');
        this.firstReady?.resolve();
        this.firstReady = undefined;
        return;
      case 'result': {
        const session = this.sessions.get(message.sid);
        const done = session?.waiting.get(message.id);
        session?.waiting.delete(message.id);
        done?.(message.result);
        return;
      }
      case 'event':
        this.sessions.get(message.sid)?.send(message.event, message.payload as never);
        return;
      case 'credentials':
        void this.answerCredentials(child, message);
        return;
    }
  }

  private async answerCredentials(child: ChildProcess, message: Extract<FromNode, { type: 'credentials' }>) {
    const store = this.opts.credentials;
    try {
      let value: unknown = null;
      if (message.op === 'load') value = await store.load();
      else if (message.op === 'save') await store.save(message.value as never);
      else await store.clear();
      this.post(child, { type: 'credentials', id: message.id, value });
    } catch (err) {
      this.post(child, { type: 'credentials', id: message.id, error: (err as Error).message });
    }
  }

  private onExit(child: ChildProcess, code: number | null, signal: string | null) {
    if (child !== this.child) return;
    this.child = undefined;
    this.emit('exit', code, signal);
    // What was asked of the dead process will never be answered: say so now.
    for (const session of this.sessions.values()) {
      for (const done of session.waiting.values()) done(LOST);
      session.waiting.clear();
    }
    this.queued.length = 0;
    if (this.closed) return;
    this.setState('lost');
    // Deaths in quick succession back off; a process that lived a while restarts quickly.
    if (Date.now() - this.startedAt > 30_000) this.delay = this.opts.restartDelayMs ?? 200;
    this.restartTimer = setTimeout(() => {
      this.setState('starting');
      this.spawn();
    }, this.delay);
    this.delay = Math.min(this.delay * 2, 5000);
  }

  /** One window's conversation; it survives restarts of the LocalNode. */
  readonly openSession: SessionFactory = (send): WindowSession => {
    const sid = this.nextSid++;
    const session: Session = { send, waiting: new Map() };
    this.sessions.set(sid, session);
    this.deliver({ type: 'open', sid });
    if (this.state !== 'ready') queueMicrotask(() => send('backend', { state: this.state }));
    return {
      invoke: (channel, input) =>
        new Promise<InvokeResult>((resolve) => {
          const id = this.nextId++;
          session.waiting.set(id, resolve);
          this.deliver({ type: 'invoke', sid, id, channel, input });
        }),
      close: async () => {
        this.sessions.delete(sid);
        for (const done of session.waiting.values()) done(LOST);
        this.deliver({ type: 'close', sid });
      },
    };
  };

  /** Sends now when the LocalNode is ready, else once it is. */
  private deliver(message: ToNode) {
    if (this.state === 'ready' && this.child?.connected) this.post(this.child, message);
    else if (message.type !== 'close') this.queued.push(message);
  }

  /** Stops the LocalNode (it saves and closes its database first). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.post(child, { type: 'shutdown' });
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(force);
  }
}

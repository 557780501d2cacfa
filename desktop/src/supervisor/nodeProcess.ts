/**
 * The LocalNode in a process of its own, run by the Supervisor (Electron main, or the
 * browser mode's server). Windows' requests arrive as messages on Node's IPC channel; the
 * token stays with the parent (which may encrypt it with the OS keychain) and is asked for.
 *
 *   QUIRE_DATA_DIR=… node nodeProcess.mjs    (forked, with an IPC channel)
 */
import type { Credentials, CredentialStore } from '../local/credentials';
import { IpcSession } from '../local/IpcSession';
import { LocalNode } from '../local/LocalNode';
import type { FromNode, ToNode } from './protocol';

const send = (message: FromNode) => {
  if (process.connected) process.send?.(message);
};

/** Asks the parent for the token: it alone holds the keychain. */
class ParentCredentialStore implements CredentialStore {
  private nextId = 1;
  readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  constructor(readonly encrypted: boolean) {}
  private ask(op: 'load' | 'save' | 'clear', value?: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      send({ type: 'credentials', id, op, value });
    });
  }
  async load() {
    return (await this.ask('load')) as Credentials | null;
  }
  async save(credentials: Credentials) {
    await this.ask('save', credentials);
  }
  async clear() {
    await this.ask('clear');
  }
}

const dataDir = process.env.QUIRE_DATA_DIR;
if (!dataDir || !process.send) throw new Error('nodeProcess runs forked by the supervisor, with QUIRE_DATA_DIR set');

// A stray rejection is logged, not fatal: one failed background task must not take every window's backend down.
process.on('unhandledRejection', (err) => console.error('[quire] unhandled rejection in the LocalNode', err));

const credentials = new ParentCredentialStore(process.env.QUIRE_CREDENTIALS_ENCRYPTED === '1');
const sessions = new Map<number, IpcSession>();
const early: ToNode[] = [];
let node: LocalNode | undefined;

const handle = async (message: ToNode) => {
  if (message.type === 'credentials') {
    const w = credentials.waiting.get(message.id);
    credentials.waiting.delete(message.id);
    if (message.error) w?.reject(new Error(message.error));
    else w?.resolve(message.value ?? null);
    return;
  }
  if (!node) {
    early.push(message);
    return;
  }
  switch (message.type) {
    case 'open': {
      if (sessions.has(message.sid)) return;
      const sid = message.sid;
      sessions.set(sid, new IpcSession(node, (event, payload) => send({ type: 'event', sid, event, payload })));
      return;
    }
    case 'invoke': {
      const session = sessions.get(message.sid);
      const result = session
        ? await session.invoke(message.channel, message.input)
        : { ok: false as const, error: { code: 'failed' as const, message: 'This window is not connected.' } };
      send({ type: 'result', sid: message.sid, id: message.id, result });
      return;
    }
    case 'close': {
      const session = sessions.get(message.sid);
      sessions.delete(message.sid);
      await session?.close();
      return;
    }
    case 'shutdown':
      await shutdown();
      return;
  }
};

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([...sessions.values()].map((s) => s.close()));
  await node?.close();
  process.exit(0);
}

process.on('message', (message: ToNode) => void handle(message).catch((err) => console.error('[quire]', err)));
// The parent is gone: nobody can reach this node any more; save and stop.
process.on('disconnect', () => void shutdown());

node = await LocalNode.open({ dataDir, credentials });
send({ type: 'ready' });
for (const message of early.splice(0)) await handle(message);

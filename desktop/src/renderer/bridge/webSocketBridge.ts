import type { BridgeErrorBody, IpcChannel, IpcEventName, IpcEventPayload, IpcInput, IpcOutput, QuireBridge } from '../../common/ipc';

/** An error the LocalNode answered with; its message is meant for the user. */
export class BridgeError extends Error {
  constructor(readonly body: BridgeErrorBody) {
    super(body.message);
    this.name = 'BridgeError';
  }
}

type Incoming =
  | { kind: 'result'; id: number; ok: true; output: unknown }
  | { kind: 'result'; id: number; ok: false; error: BridgeErrorBody }
  | { kind: 'event'; event: IpcEventName; payload: unknown };

/**
 * The browser mode's transport: the same contract as Electron IPC, carried as JSON over a
 * WebSocket to the headless LocalNode. Requests sent while the socket (re)connects wait
 * for it; listeners survive reconnects.
 */
export function createWebSocketBridge(url: string): QuireBridge {
  let socket: WebSocket | undefined;
  let ready: Promise<WebSocket> | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<IpcEventName, Set<(payload: never) => void>>();
  const dispatch = (event: IpcEventName, payload: unknown) => {
    for (const l of listeners.get(event) ?? []) l(payload as never);
  };
  /** Set once the socket closed: the next open is the backend coming back. */
  let lost = false;

  const open = (): Promise<WebSocket> => {
    ready ??= new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => {
        socket = ws;
        resolve(ws);
        if (lost) {
          lost = false;
          dispatch('backend', { state: 'ready' });
        }
      };
      ws.onerror = () => reject(new Error('The local service is not reachable.'));
      ws.onclose = () => {
        socket = undefined;
        ready = undefined;
        for (const w of waiting.values()) w.reject(new Error('The connection to the local service was lost.'));
        waiting.clear();
        // The page's server (and the LocalNode behind it) went away: the window says so at once.
        if (!lost) {
          lost = true;
          dispatch('backend', { state: 'lost' });
        }
        setTimeout(() => void open().catch(() => {}), 500);
      };
      ws.onmessage = (message) => {
        const data = JSON.parse(String(message.data)) as Incoming;
        if (data.kind === 'result') {
          const w = waiting.get(data.id);
          waiting.delete(data.id);
          if (data.ok) w?.resolve(data.output);
          else w?.reject(new BridgeError(data.error));
        } else {
          dispatch(data.event, data.payload);
        }
      };
    });
    return ready;
  };

  return {
    async invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcOutput<C>> {
      const ws = socket ?? (await open());
      const id = nextId++;
      return new Promise<IpcOutput<C>>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        ws.send(JSON.stringify({ id, channel, input }));
      });
    },
    on<E extends IpcEventName>(event: E, listener: (payload: IpcEventPayload<E>) => void) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: never) => void);
      listeners.set(event, set);
      void open().catch(() => {});
      return () => set.delete(listener as (payload: never) => void);
    },
  };
}

/**
 * The preload: builds `window.quire` from the IPC contract and nothing else. It runs
 * sandboxed with context isolation, so the page gets these two functions and no access to
 * Node or to Electron's IPC itself; channels and events outside the contract are refused
 * here, and every input is validated again in the main process.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { BridgeErrorBody, IpcChannel, IpcEventName, QuireBridge } from '../common/ipc';

/**
 * Channel and event names, read from the contract at build time (scripts/build.ts): the
 * preload stays small (no schema library in every window) and still knows only the
 * contract's names.
 */
declare const __QUIRE_IPC__: { channels: IpcChannel[]; events: IpcEventName[]; invoke: string; event: string };

const ELECTRON_INVOKE = __QUIRE_IPC__.invoke;
const ELECTRON_EVENT = __QUIRE_IPC__.event;
const channels = new Set<string>(__QUIRE_IPC__.channels);
const events = new Set<string>(__QUIRE_IPC__.events);
const listeners = new Map<string, Set<(payload: unknown) => void>>();

ipcRenderer.on(ELECTRON_EVENT, (_event, name: string, payload: unknown) => {
  for (const listener of listeners.get(name) ?? []) listener(payload);
});

const bridge: QuireBridge = {
  async invoke(channel, input) {
    if (!channels.has(channel)) throw new Error(`Unknown channel ${String(channel)}.`);
    const result = (await ipcRenderer.invoke(ELECTRON_INVOKE, channel satisfies IpcChannel, input)) as
      { ok: true; output: never } | { ok: false; error: BridgeErrorBody };
    if (!result.ok) throw new Error(result.error.message);
    return result.output;
  },
  on(event, listener) {
    if (!events.has(event)) throw new Error(`Unknown event ${String(event)}.`);
    const set = listeners.get(event satisfies IpcEventName) ?? new Set();
    set.add(listener as (payload: unknown) => void);
    listeners.set(event, set);
    return () => {
      set.delete(listener as (payload: unknown) => void);
    };
  },
};

contextBridge.exposeInMainWorld('quire', bridge);

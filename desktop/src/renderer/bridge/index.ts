import { useEffect } from 'react';
import type { IpcChannel, IpcEventName, IpcEventPayload, IpcInput, IpcOutput, QuireBridge } from '../../common/ipc';
import { createWebSocketBridge } from './webSocketBridge';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the browser mode. */
    quire?: QuireBridge;
  }
}

/**
 * The LocalNode as the renderer sees it: Electron's preload bridge when there is one,
 * otherwise the browser mode's WebSocket on the page's own origin.
 */
function resolveBridge(): QuireBridge {
  if (window.quire) return window.quire;
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  // The page was served with this start's key; the bridge refuses connections without it.
  const key = document.querySelector<HTMLMetaElement>('meta[name="quire-bridge-key"]')?.content ?? '';
  return createWebSocketBridge(`${proto}//${location.host}/bridge?key=${encodeURIComponent(key)}`);
}

export const bridge: QuireBridge = resolveBridge();

export function call<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcOutput<C>> {
  return bridge.invoke(channel, input);
}

/** Subscribes a component to a LocalNode event for its lifetime. */
export function useBridgeEvent<E extends IpcEventName>(event: E, listener: (payload: IpcEventPayload<E>) => void, deps: unknown[] = []) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists what the listener depends on
  useEffect(() => bridge.on(event, listener), deps);
}

export { BridgeError } from './webSocketBridge';

import { useEffect, useState } from 'react';
import { bridge } from './index';

export type BackendState = 'ready' | 'starting' | 'lost';

/** How often a window asks whether its LocalNode still answers, and how long it waits. */
const PING_EVERY_MS = 200;
const LOST_AFTER_MS = 500;

let state: BackendState = 'ready';
/**
 * Set when the backend itself was replaced (its process restarted, the socket reconnected):
 * windows must open their branches again. A backend that was only slow to answer still has them.
 */
let replaced = false;
const listeners = new Set<(state: BackendState) => void>();
const backListeners = new Set<() => void>();

function set(next: BackendState) {
  if (next === state) return;
  state = next;
  for (const l of listeners) l(state);
  if (next === 'ready' && replaced) {
    replaced = false;
    for (const l of backListeners) l();
  }
}

/**
 * Whether the LocalNode behind this window is there. Its host says so when it knows (the
 * process died, the socket closed), and a ping a few times a second catches a backend that
 * stopped answering without dying: either way the window knows within a second.
 */
function watch() {
  bridge.on('backend', ({ state: next }) => {
    if (next !== 'ready') replaced = true;
    set(next);
  });
  let inFlightSince = 0;
  setInterval(() => {
    const now = Date.now();
    if (inFlightSince) {
      if (now - inFlightSince > LOST_AFTER_MS && state === 'ready') set('lost');
      return;
    }
    inFlightSince = now;
    bridge
      .invoke('backend.ping', {})
      .then(() => set('ready'))
      .catch(() => {
        if (state === 'ready') set('lost');
      })
      .finally(() => {
        inFlightSince = 0;
      });
  }, PING_EVERY_MS);
}
watch();

export function backendState(): BackendState {
  return state;
}

/** Runs `fn` each time the backend comes back after being lost (open branches are opened again). */
export function onBackendBack(fn: () => void): () => void {
  backListeners.add(fn);
  return () => backListeners.delete(fn);
}

export function useBackendState(): BackendState {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    listeners.add(setCurrent);
    setCurrent(state);
    return () => {
      listeners.delete(setCurrent);
    };
  }, []);
  return current;
}

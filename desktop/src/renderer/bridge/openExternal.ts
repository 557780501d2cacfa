/**
 * Opens a page in the user's browser. In the Electron app a window.open reaches the main
 * process's window-open handler, which hands http(s) addresses to `shell.openExternal` (the
 * system browser) and opens nothing in the app; in the browser mode it is a new tab.
 *
 * Browsers let a page open a tab only during a click, and the address is known only after
 * the LocalNode answered: `reserveTab` runs in the click (the browser mode gets a blank tab,
 * Electron nothing), `openExternal` then sends that tab, or a new window, to the address.
 */
export type Opener = (url: string, reserved: Window | null) => void;

export function reserveTab(): Window | null {
  return window.quire ? null : window.open('', '_blank');
}

export const openExternal: Opener = (url, reserved) => {
  if (reserved && !reserved.closed) {
    // The server's page must not reach back into this window (reverse tabnabbing).
    reserved.opener = null;
    reserved.location.href = url;
    return;
  }
  window.open(url, '_blank', 'noopener');
};

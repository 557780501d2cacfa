/**
 * The Electron main process: one window per request, each talking to the one LocalNode
 * through the IPC contract. Everything that touches disk or network lives in the LocalNode,
 * which runs in a process of its own under a Supervisor (plain Node, tested without
 * Electron): if it dies, windows are told at once and it is started again. This file only
 * wires windows, security settings and the OS keychain.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BrowserWindow, type WebContents, app, ipcMain, nativeTheme, safeStorage, session, shell } from 'electron';
import { ELECTRON_EVENT, ELECTRON_INVOKE } from '../common/ipc';
import { FileCredentialStore } from '../local/credentials';
import type { WindowSession } from '../local/windowSession';
import { Supervisor } from '../supervisor/Supervisor';

const here = fileURLToPath(new URL('.', import.meta.url));
const PRELOAD = join(here, '../preload/preload.cjs');
const RENDERER_HTML = join(here, '../renderer/index.html');
/** The LocalNode's process (bundled next to this file by scripts/build.ts). */
const LOCAL_NODE = join(here, 'localNode.mjs');
/** Development: load the renderer from a Vite dev server instead of the built files. */
const RENDERER_URL = process.env.QUIRE_RENDERER_URL;

const sessions = new Map<number, WindowSession>();
let node: Supervisor | undefined;

/** The token is encrypted with the OS keychain (Keychain, DPAPI, libsecret) whenever Electron offers it. */
function credentialStore(userData: string): FileCredentialStore {
  const codec = safeStorage.isEncryptionAvailable()
    ? { encrypt: (plain: string) => safeStorage.encryptString(plain), decrypt: (data: Buffer) => safeStorage.decryptString(data) }
    : undefined;
  return new FileCredentialStore(join(userData, codec ? 'credentials.bin' : 'credentials.json'), codec);
}

/** Only our own renderer may call the bridge: a navigated-away or injected frame may not. */
function trustedSender(contents: WebContents, frameUrl: string | undefined): boolean {
  if (!frameUrl) return false;
  if (RENDERER_URL) return frameUrl.startsWith(RENDERER_URL);
  return (
    frameUrl.startsWith('file://') &&
    decodeURIComponent(new URL(frameUrl).pathname).endsWith('/renderer/index.html') &&
    !contents.isDestroyed()
  );
}

function sessionFor(contents: WebContents): WindowSession {
  let s = sessions.get(contents.id);
  if (!s && node) {
    s = node.openSession((event, payload) => {
      if (!contents.isDestroyed()) contents.send(ELECTRON_EVENT, event, payload);
    });
    sessions.set(contents.id, s);
    contents.once('destroyed', () => {
      sessions.delete(contents.id);
      void s?.close();
    });
  }
  return s as WindowSession;
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1320,
    height: 860,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Quire',
    // The renderer follows the system's light or dark until the writer picks one: no white flash in dark.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#17181d' : '#ffffff',
    titleBarStyle: process.platform === 'darwin' ? 'hiddenInset' : 'default',
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
    },
  });
  win.once('ready-to-show', () => win.show());
  // Links open in the user's browser; the window itself never navigates away from the app.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (url !== win.webContents.getURL()) event.preventDefault();
  });
  if (RENDERER_URL) void win.loadURL(RENDERER_URL);
  else void win.loadFile(RENDERER_HTML);
  return win;
}

async function start() {
  if (!app.requestSingleInstanceLock()) {
    // The data directory belongs to the first instance: focus it instead.
    app.quit();
    return;
  }
  app.on('second-instance', () => {
    const [win] = BrowserWindow.getAllWindows();
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  await app.whenReady();
  // No camera, microphone, notifications or geolocation: the renderer never needs them.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  const userData = app.getPath('userData');
  // Electron's own binary runs the LocalNode as plain Node; the keychain stays here, in main.
  node = new Supervisor({
    entry: LOCAL_NODE,
    dataDir: join(userData, 'local'),
    credentials: credentialStore(userData),
    execPath: process.execPath,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  await node.start();

  ipcMain.handle(ELECTRON_INVOKE, async (event, channel: unknown, input: unknown) => {
    if (!trustedSender(event.sender, event.senderFrame?.url)) {
      return { ok: false, error: { code: 'unknown-channel', message: 'This frame may not use the Quire bridge.' } };
    }
    // IpcSession validates the channel and the input against the contract before anything runs.
    return sessionFor(event.sender).invoke(channel, input);
  });

  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !node) return;
  // Let the LocalNode finish its writes before the process goes.
  event.preventDefault();
  quitting = true;
  void Promise.allSettled([...sessions.values()].map((s) => s.close()))
    .then(() => node?.close())
    .finally(() => app.quit());
});

void start();

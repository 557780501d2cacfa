import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  proc: ChildProcess;
  port: number;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * The node arguments that run the server (or the desktop's local node in a test process):
 * the run's bundle when the test run built one (test/serverBundles.ts), else the TypeScript
 * source through tsx, as for a test file run outside vitest.
 */
export function processEntry(which: 'server' | 'node', source: string): string[] {
  const bundle = process.env[which === 'server' ? 'QUIRE_TEST_SERVER_BUNDLE' : 'QUIRE_TEST_NODE_BUNDLE'];
  return bundle ? ['--enable-source-maps', bundle] : ['--import', 'tsx', source];
}

/** Starts `npm start`'s entry point as a real child process and waits for /healthz. */
export async function spawnServer(env: Record<string, string>, timeoutMs = 120_000): Promise<ServerProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const proc = spawn(process.execPath, processEntry('server', 'src/main.ts'), {
    cwd: SERVER_DIR,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d) => {
    out += d;
  });
  proc.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (Date.now() < deadline && !done) {
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return { proc, port, url, output: () => out, exited };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill('SIGKILL');
  throw new Error(`server did not start:\n${out}`);
}

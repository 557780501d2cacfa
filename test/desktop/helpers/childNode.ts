import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { processEntry } from '../../../sync-server/src/testing/processes';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '../../..');

interface Line {
  id?: number;
  ok?: boolean;
  result?: unknown;
  error?: string;
  event?: string;
  [key: string]: unknown;
}

/** A LocalNode running in a child process (see nodeProcess.ts), for crash tests. */
export class ChildNode {
  private nextId = 1;
  private waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private listeners: ((line: Line) => void)[] = [];
  readonly exited: Promise<number | null>;
  private stderr = '';

  private constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (text) => {
      let line: Line;
      try {
        line = JSON.parse(text) as Line;
      } catch {
        return;
      }
      if (line.id !== undefined) {
        const w = this.waiting.get(line.id);
        this.waiting.delete(line.id);
        if (line.ok) w?.resolve(line.result);
        else w?.reject(new Error(line.error));
      }
      for (const l of this.listeners) l(line);
    });
    child.stderr?.on('data', (d) => {
      this.stderr += String(d);
    });
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    void this.exited.then(() => {
      for (const w of this.waiting.values()) w.reject(new Error(`child exited: ${this.stderr.slice(-2000)}`));
      this.waiting.clear();
    });
  }

  static async start(dataDir: string): Promise<ChildNode> {
    const child = spawn(process.execPath, [...processEntry('node', join(HERE, 'nodeProcess.ts')), dataDir], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    const node = new ChildNode(child);
    await node.next((l) => l.event === 'ready', 60_000);
    return node;
  }

  /** Resolves with the first line (event or answer) matching `match`. */
  next(match: (line: Line) => boolean, ms = 30_000): Promise<Line> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child: timed out; stderr: ${this.stderr.slice(-2000)}`)), ms);
      const listener = (line: Line) => {
        if (!match(line)) return;
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== listener);
        resolve(line);
      };
      this.listeners.push(listener);
      void this.exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`child exited; stderr: ${this.stderr.slice(-2000)}`));
      });
    });
  }

  onLine(listener: (line: Line) => void) {
    this.listeners.push(listener);
  }

  call<T = unknown>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
    if (this.child.exitCode !== null || this.child.signalCode !== null)
      return Promise.reject(new Error(`child exited: ${this.stderr.slice(-2000)}`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.stdin!.write(`${JSON.stringify({ id, cmd, ...args })}\n`);
    });
  }

  /** No goodbye, no flush: the process is gone, as after a crash or a power button. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  async close(): Promise<void> {
    await this.call('close').catch(() => {});
    await this.exited;
  }
}

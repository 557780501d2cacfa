import type { IpcEventName } from '../common/ipc';
import type { InvokeResult } from '../local/IpcSession';

/**
 * Messages between the supervisor and the LocalNode process it runs (Node's IPC channel).
 * Each window is one session id; the LocalNode process keeps an IpcSession per id.
 */
export type ToNode =
  | { type: 'open'; sid: number }
  | { type: 'invoke'; sid: number; id: number; channel: unknown; input: unknown }
  | { type: 'close'; sid: number }
  | { type: 'credentials'; id: number; value?: unknown; error?: string }
  | { type: 'shutdown' };

export type FromNode =
  | { type: 'ready' }
  | { type: 'result'; sid: number; id: number; result: InvokeResult }
  | { type: 'event'; sid: number; event: IpcEventName; payload: unknown }
  | { type: 'credentials'; id: number; op: 'load' | 'save' | 'clear'; value?: unknown };

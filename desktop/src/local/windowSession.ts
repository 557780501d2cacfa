import type { IpcEventName, IpcEventPayload } from '../common/ipc';
import type { InvokeResult } from './IpcSession';

/** One window's conversation with the LocalNode, wherever it runs (this process or a supervised one). */
export interface WindowSession {
  invoke(channel: unknown, input: unknown): Promise<InvokeResult>;
  close(): Promise<void>;
}

/** Opens a window's session; `send` carries the LocalNode's events to that window. */
export type SessionFactory = (send: <E extends IpcEventName>(event: E, payload: IpcEventPayload<E>) => void) => WindowSession;

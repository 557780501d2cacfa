import type { QueryOptions } from '@electric-sql/pglite';

/** What the adapter uses of PGlite: PGlite itself, or the same database in a thread of its own (`pgliteThread.ts`). */
export interface PGliteLike {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<{ rows: T[] }>;
  transaction<T>(fn: (tx: Pick<PGliteLike, 'query'>) => Promise<T>): Promise<T>;
  exec(sql: string): Promise<unknown>;
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  readonly closed: boolean;
  close(): Promise<void>;
}

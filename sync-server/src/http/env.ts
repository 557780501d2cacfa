import type { Config } from '../config';
import type { Access } from '../core/access';
import type { Logger } from '../logger';
import type { Db } from '../store/db';
import type { Caller } from '../core/callers';

/** What every handler can reach: built once at start, shared by all requests. */
export interface Deps {
  db: Db;
  config: Config;
  log: Logger;
}

export type { Caller } from '../core/callers';

export interface AppEnv {
  Variables: {
    deps: Deps;
    requestId: string;
    caller: Caller;
    /** Access of the caller, loaded once per organization per request. */
    access: Access;
    /** SHA-256 of the request's API token. */
    tokenHash: string;
    /** Set by a handler whose answer may be kept as bytes (see responseCache). */
    cacheTags: string[];
  };
}

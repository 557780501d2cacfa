import type { Config } from '../config';
import type { Access } from '../core/access';
import type { Logger } from '../logger';
import type { Db } from '../store/db';
import type { UserRow } from '../store/users';

/** What every handler can reach: built once at start, shared by all requests. */
export interface Deps {
  db: Db;
  config: Config;
  log: Logger;
}

export interface Caller {
  user: UserRow;
  tokenId: string;
}

export interface AppEnv {
  Variables: {
    deps: Deps;
    requestId: string;
    caller: Caller;
    /** Access of the caller, loaded once per organization per request. */
    access: Access;
  };
}

import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { Db, Queryable } from '../../store/db';
import type { Access } from '../access/callerAccess';
import type { Caller } from '../access/callers';

/** What every service and handler can reach: built once at start, shared by all requests. */
export interface Deps {
  db: Db;
  config: Config;
  log: Logger;
}

/**
 * A database handle or an open transaction, as http/ names it to hand it on to store/ and
 * core/ functions: http/ never runs SQL on it (see the layering rules).
 */
export type DbHandle = Queryable;

/**
 * What a command or query takes first, whichever front calls it: the server's dependencies
 * (the database, through which the read model is reached: `readModelOf(deps.db)`), who asks
 * (their token's user, and their access, which decides through the resource's policy what
 * they may do), and the public base URL the view models' links start with.
 */
export interface CommandContext {
  deps: Deps;
  caller: Caller;
  /** `caller.user.id`, which most writes record. */
  userId: string;
  access: Access;
  baseUrl: string;
}

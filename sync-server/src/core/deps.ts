import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Db, Queryable } from '../store/db';
import type { Access } from './access';

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
 * What a command or query takes first: the server's dependencies and who asks (their
 * access decides, through the resource's policy, what they may do).
 */
export interface CommandContext {
  deps: Deps;
  access: Access;
  userId: string;
}

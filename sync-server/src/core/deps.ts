import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Db } from '../store/db';

/** What every service and handler can reach: built once at start, shared by all requests. */
export interface Deps {
  db: Db;
  config: Config;
  log: Logger;
}

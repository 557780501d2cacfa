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
 * What an operation open to anyone takes first: the server's dependencies and the public base
 * URL, and no caller. The endpoints a browser or another server reaches without an API token
 * (the desktop sign-in pages, SAML's service endpoints, signed download links, git hooks,
 * public OpenAPI documents) build it with `publicContext(c)` (`web/commandContext.ts`); what
 * authorizes them is in their input (a password, a signature, a code, a secret). A
 * `CommandContext` is one too.
 */
export interface PublicContext {
  deps: Deps;
  baseUrl: string;
}

/**
 * What a command or query takes first, whichever front calls it: the server's dependencies
 * (the database, through which the read model is reached: `readModelOf(deps.db)`), who asks
 * (their token's user, and their access, which decides through the resource's policy what
 * they may do), and the public base URL the view models' links start with.
 */
export interface CommandContext extends PublicContext {
  caller: Caller;
  /** `caller.user.id`, which most writes record. */
  userId: string;
  access: Access;
}

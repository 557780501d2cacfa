import type { Access } from '../core/access/callerAccess';
import type { Caller } from '../core/access/callers';
import type { Deps } from '../core/platform/deps';

/** What a request carries from middleware to handler, for the API and the published sites alike. */
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
    /** The read model's generation when the request began, before anything was read. */
    readSince: number;
  };
}

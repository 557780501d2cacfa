export type { Deps } from '../core/platform/deps';

export type { Caller } from '../core/access/callers';

export type { AppEnv } from '../web/env';

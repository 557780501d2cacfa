export type { Deps } from '../core/deps';

export type { Caller } from '../core/callers';

export type { AppEnv } from '../web/env';

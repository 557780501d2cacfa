import type { Context } from 'hono';
import type { CommandContext, PublicContext } from '../core/platform/deps';
import { baseUrl } from './baseUrl';
import type { AppEnv } from './env';

/** The caller's context, as every command and query takes it, from an authenticated request (REST or MCP). */
export function commandContext(c: Context<AppEnv>): CommandContext {
  const caller = c.get('caller');
  return { deps: c.get('deps'), caller, userId: caller.user.id, access: c.get('access'), baseUrl: baseUrl(c) };
}

/** The context of a request made without an API token (sign-in pages, signed links, hooks): no caller. */
export function publicContext(c: Context<AppEnv>): PublicContext {
  return { deps: c.get('deps'), baseUrl: baseUrl(c) };
}

import type { Context } from 'hono';
import type { LinkBase } from '../core/content/exports';
import { baseUrl } from '../web/baseUrl';
import type { AppEnv } from './env';

export { baseUrl };

/** Download links made while answering: at the server's address, handed to the caller's token. */
export function linkBase(c: Context<AppEnv>): LinkBase {
  return { base: baseUrl(c), holder: `t.${c.get('caller').tokenId}` };
}

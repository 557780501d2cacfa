import type { Context } from 'hono';
import type { LinkBase } from '../core/content/exports';
import type { AppEnv } from './env';

/** Download links made while answering: at the server's address, handed to the caller's token. */
export function linkBase(c: Context<AppEnv>): LinkBase {
  return { base: baseUrl(c), holder: `t.${c.get('caller').tokenId}` };
}

/** The server's own base URL: PUBLIC_URL when set (behind a proxy), else what the request was sent to. */
export function baseUrl(c: Context<AppEnv>): string {
  const configured = c.get('deps').config.publicUrl;
  if (configured) return configured;
  const url = new URL(c.req.url);
  return `${url.protocol}//${url.host}`;
}

import type { Context } from 'hono';
import type { AppEnv } from './env';

/** The server's own base URL: PUBLIC_URL when set (behind a proxy), else what the request was sent to. */
export function baseUrl(c: Context<AppEnv>): string {
  const configured = c.get('deps').config.publicUrl;
  if (configured) return configured;
  const url = new URL(c.req.url);
  return `${url.protocol}//${url.host}`;
}

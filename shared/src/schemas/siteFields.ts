import { z } from 'zod';

/** Field shapes every site schema shares. */

/**
 * A body field the public client sends for a feature this server does not have: refused
 * with a 400 that says so, rather than as an unknown field or, worse, silently ignored.
 */
export function unsupported(why: string) {
  return z
    .unknown()
    .refine(() => false, { error: why })
    .optional();
}

/** `draft`: everything on a site here is live, so only `false` is accepted. */
export const LiveOnly = z
  .boolean()
  .refine((v) => v === false, { error: 'drafts are not supported: site content is live as soon as it is added' })
  .optional();

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const LOOKUP_TIMEOUT_MS = 3000;

function isPublic(address: string): boolean {
  try {
    return ipaddr.process(address).range() === 'unicast';
  } catch {
    return false;
  }
}

/** Every address a name resolves to, as the system resolver (and so each delivery's connection) sees them. */
export type Resolve = (host: string) => Promise<{ address: string }[]>;
export const resolveAll: Resolve = (host) => lookup(host, { all: true });

/**
 * Why a webhook may not target `url`, or undefined when it may: loopback, private and
 * metadata addresses are refused (unless `ALLOW_PRIVATE_FETCH=true`), as literal addresses
 * and as names resolving to one. A name that does not resolve yet is accepted; every
 * delivery goes through the fetch guard, which checks the address it connects to.
 */
export async function refusedTarget(
  url: string,
  allowPrivate: boolean,
  resolve: Resolve = resolveAll,
  timeoutMs = LOOKUP_TIMEOUT_MS,
): Promise<string | undefined> {
  if (allowPrivate) return undefined;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const refused = `targets a loopback or private address (${host}); set ALLOW_PRIVATE_FETCH=true on the server to allow it`;
  if (isIP(host)) return isPublic(host) ? undefined : refused;
  if (host === 'localhost' || host.endsWith('.localhost')) return refused;
  let timer: NodeJS.Timeout | undefined;
  try {
    const addresses = await Promise.race([
      resolve(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return addresses.every((a) => isPublic(a.address)) ? undefined : refused;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

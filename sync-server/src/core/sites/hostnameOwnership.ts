import { Resolver } from 'node:dns/promises';
import type { Config } from '../../config';

/**
 * Who may serve a site at a hostname. The server's own names are never a site's; any
 * other name is served only once whoever controls its DNS has said which site it is for,
 * with a TXT record `quire-site=<siteId>` on `_quire.<hostname>`. Without that proof any
 * user could point a site at a name that already reaches this server (another
 * organization's, or one of the server's own) and take over its paths.
 */

/** Paths of the server itself, never a site's whatever the Host: the API, sign-in, downloads. */
const SERVER_PATHS = /^\/(v1|sso|files|exports)(\/|$)|^\/healthz$/;

/** True for a path (or a redirect source's fixed prefix) that belongs to the server, not to a site. */
export function isServerPath(path: string): boolean {
  return SERVER_PATHS.test(path.toLowerCase());
}

/** Name of the TXT record holding the proof. */
export function verificationRecordName(hostname: string): string {
  return `_quire.${hostname}`;
}

export function verificationRecordValue(siteId: string): string {
  return `quire-site=${siteId}`;
}

export function isReservedHostname(config: Pick<Config, 'reservedHostnames'>, hostname: string): boolean {
  return config.reservedHostnames.includes(hostname.toLowerCase());
}

/** Gives up on a DNS answer after this long: the proof is asked again on the next change. */
const DNS_TIMEOUT_MS = 3000;

/**
 * True when the hostname's DNS names this site. Any failure (no record, no such name,
 * timeout) is simply "not proven".
 */
export async function hostnameProven(config: Pick<Config, 'hostnameDnsServers'>, hostname: string, siteId: string): Promise<boolean> {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 1 });
  if (config.hostnameDnsServers.length) resolver.setServers(config.hostnameDnsServers);
  try {
    const records = await resolver.resolveTxt(verificationRecordName(hostname));
    const wanted = verificationRecordValue(siteId);
    return records.some((chunks) => chunks.join('').trim() === wanted);
  } catch {
    return false;
  }
}

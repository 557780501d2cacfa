import * as http from 'node:http';
import * as https from 'node:https';
import { useAgent } from 'request-filtering-agent';
import { shownUrl } from './shownUrl';

export interface GuardedFetchOptions {
  /** Let the fetch reach loopback and private addresses (`ALLOW_PRIVATE_FETCH=true`). */
  allowPrivate: boolean;
  /** Whole fetch, redirects and body included. */
  timeoutMs: number;
  /** Largest body accepted; a longer one aborts the fetch. */
  maxBytes: number;
  /**
   * Addresses let through as if they were public (an operator's mirror on a private
   * network, or a test's local server); every other private address stays refused.
   */
  trustedAddresses?: readonly string[];
  /**
   * A request that sends something (a webhook delivery, a git request): its method, body
   * and headers. Redirects are not followed for it: the receiver's 3xx is its answer.
   */
  send?: { method: string; body?: string | Uint8Array; headers: Record<string, string> };
  /**
   * Headers of a GET (a git client's `Authorization`). A redirect to another origin drops
   * `Authorization`, so credentials meant for one host never reach another.
   */
  headers?: Record<string, string>;
}

export interface GuardedFetchResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Why a guarded fetch gave up, so callers can answer a precise error. */
export type FetchFailure = 'TIMEOUT' | 'TOO_LARGE' | 'REFUSED' | 'FAILED';

export class FetchError extends Error {
  constructor(
    readonly failure: FetchFailure,
    message: string,
  ) {
    super(message);
  }
}

const MAX_REDIRECTS = 5;

/**
 * Fetches a URL on behalf of a user (imports, spec URLs) without letting the user reach
 * the server's own network: the connecting agent refuses loopback, private and metadata
 * addresses after DNS resolution (so a rebinding name cannot slip through), on every
 * redirect hop. Non-2xx answers are returned, not thrown; the caller decides.
 */
export async function guardedFetch(url: string, opts: GuardedFetchOptions): Promise<GuardedFetchResult> {
  const deadline = Date.now() + opts.timeoutMs;
  let current = url;
  let hopOpts = opts;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const res = await fetchOnce(current, hopOpts, deadline);
    const location = res.headers.location;
    if (!opts.send && res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, current);
      if (next.origin !== new URL(current).origin && hopOpts.headers)
        hopOpts = { ...hopOpts, headers: withoutAuthorization(hopOpts.headers) };
      current = next.toString();
      continue;
    }
    return res;
  }
  throw new FetchError('FAILED', `Too many redirects (more than ${MAX_REDIRECTS}) fetching ${shownUrl(url)}.`);
}

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
}

function fetchOnce(url: string, opts: GuardedFetchOptions, deadline: number): Promise<GuardedFetchResult> {
  // Errors are shown to the user and recorded (webhook attempts): never with credentials.
  const shown = shownUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return Promise.reject(new FetchError('FAILED', `Not a valid URL: ${shown}.`));
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return Promise.reject(new FetchError('REFUSED', `Only http and https URLs can be fetched, not ${parsed.protocol}.`));
  }
  // A deadline already past (zero or negative) fires the timer at once.
  const remaining = deadline - Date.now();
  const agent = useAgent(url, {
    allowPrivateIPAddress: opts.allowPrivate,
    allowMetaIPAddress: opts.allowPrivate,
    allowIPAddressList: opts.trustedAddresses ? [...opts.trustedAddresses] : [],
    keepAlive: false,
  });
  const request = parsed.protocol === 'https:' ? https.request : http.request;
  const headers = { 'user-agent': 'Quire', accept: '*/*', ...opts.headers, ...opts.send?.headers };
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: FetchError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(err);
    };
    const timer = setTimeout(() => fail(new FetchError('TIMEOUT', `Fetching ${shown} took longer than ${opts.timeoutMs} ms.`)), remaining);
    const req = request(url, { method: opts.send?.method ?? 'GET', agent, headers }, (res) => {
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        fail(new FetchError('TOO_LARGE', `The body at ${shown} is larger than ${opts.maxBytes} bytes.`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > opts.maxBytes) fail(new FetchError('TOO_LARGE', `The body at ${shown} is larger than ${opts.maxBytes} bytes.`));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      });
      res.on('error', (err) => fail(new FetchError('FAILED', `Fetching ${shown} failed: ${err.message}.`)));
    });
    req.on('error', (err) => {
      // The filtering agent reports refused addresses as plain errors; tell them apart by message.
      const refused = /is not allowed|private|meta/i.test(err.message);
      fail(
        new FetchError(
          refused ? 'REFUSED' : 'FAILED',
          refused ? `Fetching ${shown} was refused: ${err.message}` : `Fetching ${shown} failed: ${err.message}.`,
        ),
      );
    });
    req.end(opts.send?.body);
  });
}

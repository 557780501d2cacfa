import { DomainError } from '@quire/shared/domainErrors';
import { FetchError, guardedFetch } from '../../security/fetchGuard';
import type { ContentConfig } from '../config';

export interface Fetched {
  body: Buffer;
  contentType: string;
}

/**
 * The fetches of one import: every one guarded (no loopback or private addresses unless
 * allowed), all of them sharing one deadline and one byte budget, so an import that
 * follows many links still ends in bounded time and memory.
 */
export class ImportFetcher {
  private readonly deadline: number;
  private bytesLeft: number;

  constructor(
    private readonly limits: ContentConfig,
    private readonly allowPrivate: boolean,
  ) {
    this.deadline = Date.now() + limits.importTimeoutMs;
    this.bytesLeft = limits.importMaxBytes;
  }

  /**
   * The first fetch: whatever goes wrong is the answer to the import (and nothing is
   * written), with a status saying whose fault it is.
   */
  async root(url: string): Promise<Fetched> {
    try {
      const res = await this.fetch(url);
      if (res.status < 200 || res.status >= 300) {
        throw new DomainError(
          res.status >= 400 && res.status < 500 ? 'unprocessable' : 'upstream_failed',
          `Fetching ${url} failed: the server answered ${res.status}. Nothing was imported.`,
        );
      }
      return { body: res.body, contentType: contentTypeOf(res.headers['content-type']) };
    } catch (err) {
      throw asDomainError(err, url);
    }
  }

  /** A fetch of something the first document points at: a failure only leaves that resource out. */
  async optional(url: string): Promise<Fetched | undefined> {
    try {
      const res = await this.fetch(url);
      if (res.status < 200 || res.status >= 300) return undefined;
      return { body: res.body, contentType: contentTypeOf(res.headers['content-type']) };
    } catch (err) {
      // Running out of time or bytes ends the whole import: a partial one would be a surprise.
      if (err instanceof FetchError && (err.failure === 'TIMEOUT' || err.failure === 'TOO_LARGE')) throw asDomainError(err, url);
      return undefined;
    }
  }

  private async fetch(url: string) {
    const timeoutMs = this.deadline - Date.now();
    if (timeoutMs <= 0) throw new FetchError('TIMEOUT', `The import took longer than ${this.limits.importTimeoutMs} ms.`);
    const res = await guardedFetch(url, { allowPrivate: this.allowPrivate, timeoutMs, maxBytes: this.bytesLeft });
    this.bytesLeft -= res.body.length;
    return res;
  }
}

function contentTypeOf(header: string | string[] | undefined): string {
  const v = Array.isArray(header) ? header[0] : header;
  return (v ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function asDomainError(err: unknown, url: string): Error {
  if (err instanceof DomainError) return err;
  if (!(err instanceof FetchError)) return err as Error;
  switch (err.failure) {
    case 'REFUSED':
      return new DomainError(
        'invalid',
        `Invalid body field "url": fetching ${url} was refused (loopback and private addresses are not fetched unless ALLOW_PRIVATE_FETCH=true).`,
      );
    case 'TIMEOUT':
      return new DomainError('upstream_timeout', `${err.message} Nothing was imported.`);
    case 'TOO_LARGE':
      return new DomainError('too_large', `${err.message} Nothing was imported.`);
    default:
      return new DomainError('upstream_failed', `${err.message} Nothing was imported.`);
  }
}

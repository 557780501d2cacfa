/**
 * What went wrong, in the domain's words: the fronts (REST, MCP, published sites) each turn a
 * kind into their own answer (the REST status table is `http/errorStatus.ts`). Code below the
 * fronts never names an HTTP status.
 */
export type DomainErrorKind =
  /** Bad input: the message names the field. */
  | 'invalid'
  /** No caller, or a token that is not valid. */
  | 'unauthenticated'
  /** A known caller without the right. */
  | 'forbidden'
  /** Unknown, or not visible to this caller (never reveals existence). */
  | 'not_found'
  | 'conflict'
  /** A condition the caller set (a revision, a version) does not hold. */
  | 'precondition_failed'
  | 'too_large'
  /** Well-formed input that cannot be carried out (a source that answered with an error). */
  | 'unprocessable'
  | 'rate_limited'
  /** Another server this one depends on failed or answered badly. */
  | 'upstream_failed'
  | 'upstream_timeout';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** When a rate limit lets the caller try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new DomainError('invalid', message);
export const unauthorized = (message = 'A valid API token is required: send Authorization: Bearer <token>.') =>
  new DomainError('unauthenticated', message);
export const forbidden = (message = 'You do not have the permission to do this.') => new DomainError('forbidden', message);
export const notFound = (what: string) => new DomainError('not_found', `No matching ${what} found.`);
export const notFoundBecause = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const preconditionFailed = (message: string) => new DomainError('precondition_failed', message);
export const tooLarge = (message: string) => new DomainError('too_large', message);
export const unprocessable = (message: string) => new DomainError('unprocessable', message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new DomainError('rate_limited', `Rate limit exceeded: retry in ${retryAfterSeconds} s.`, retryAfterSeconds);
export const upstreamFailed = (message: string) => new DomainError('upstream_failed', message);
export const upstreamTimeout = (message: string) => new DomainError('upstream_timeout', message);

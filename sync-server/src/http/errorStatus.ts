import { DomainError, type DomainErrorKind } from '@quire/shared/domainErrors';

/** A refusal only HTTP has (a body too large for its route, a content type), with its own status and headers. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  upstream_failed: 502,
  upstream_timeout: 504,
};

export interface HttpAnswer {
  status: number;
  message: string;
  headers: Record<string, string>;
}

/** The REST answer to an error the API knows, or undefined for a bug. */
export function httpAnswerOf(err: unknown): HttpAnswer | undefined {
  if (err instanceof ApiError) return { status: err.status, message: err.message, headers: err.headers };
  if (!(err instanceof DomainError)) return undefined;
  const headers: Record<string, string> = {};
  if (err.kind === 'unauthenticated') headers['WWW-Authenticate'] = 'Bearer';
  if (err.kind === 'rate_limited' && err.retryAfterSeconds !== undefined) headers['Retry-After'] = String(err.retryAfterSeconds);
  return { status: STATUS[err.kind], message: err.message, headers };
}

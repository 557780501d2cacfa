/** The one error type routes throw; `onError` turns it into the wire body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = 'A valid API token is required: send Authorization: Bearer <token>.') =>
  new ApiError(401, message, { 'WWW-Authenticate': 'Bearer' });
export const forbidden = (message = 'You do not have the permission to do this.') => new ApiError(403, message);
export const notFound = (what: string) => new ApiError(404, `No matching ${what} found.`);
export const conflict = (message: string) => new ApiError(409, message);
export const preconditionFailed = (message: string) => new ApiError(412, message);
export const unprocessable = (message: string) => new ApiError(422, message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiError(429, `Rate limit exceeded: retry in ${retryAfterSeconds} s.`, { 'Retry-After': String(retryAfterSeconds) });

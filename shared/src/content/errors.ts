/** Why a content operation was refused; the server maps each to its HTTP status. */
export const ContentErrorCode = {
  /** A page, file or reusable content id that the branch does not hold (404). */
  notFound: 'not_found',
  /** A request that would break the layout: a page moved under itself, a bad sibling (400). */
  invalid: 'invalid',
} as const;
export type ContentErrorCode = (typeof ContentErrorCode)[keyof typeof ContentErrorCode];

/** A refused content operation; nothing was written when it is thrown. */
export class ContentError extends Error {
  readonly code: ContentErrorCode;

  constructor(code: ContentErrorCode, message: string) {
    super(message);
    this.name = 'ContentError';
    this.code = code;
  }
}

export function notFound(what: string, id: string): ContentError {
  return new ContentError(ContentErrorCode.notFound, `${what} ${id} does not exist`);
}

export function invalid(message: string): ContentError {
  return new ContentError(ContentErrorCode.invalid, message);
}

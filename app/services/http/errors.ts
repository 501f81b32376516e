// The one error shape of Quarry. Services throw DomainError; the JSON API answers
// {"detail": ...} with its status; HTML routes map it to form errors, modals or error pages.

export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly fields?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, fields?: FieldErrors) => new DomainError(400, detail, fields);
export const unauthorized = (detail = 'Not authenticated') => new DomainError(401, detail);
export const forbidden = (detail = 'Not allowed') => new DomainError(403, detail);
export const notFound = (detail = 'Not found') => new DomainError(404, detail);
export const conflict = (detail: string, fields?: FieldErrors) => new DomainError(409, detail, fields);
export const unprocessable = (detail: string, fields?: FieldErrors) => new DomainError(422, detail, fields);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new DomainError(429, `Too many attempts. Try again in ${retryAfterSeconds} seconds.`, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });

export const TOKEN_EXPIRED_DETAIL = 'Token expired';

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}

// A rule or expression that cannot be read, with the 1-based column of the offending token so
// the page and the API can say exactly where (`Unknown metric "revnue" at column 2`).

export const MAX_EXPRESSION_LENGTH = 500;
/** Nesting bound: a hostile `((((…` must fail with a message, not a stack overflow. */
export const MAX_EXPRESSION_DEPTH = 24;

export class ExpressionError extends Error {
  override name = 'ExpressionError';
  constructor(
    readonly reason: string,
    readonly column: number,
  ) {
    super(`${reason} at column ${column}`);
  }
}

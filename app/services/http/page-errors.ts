import { isDomainError, notFound, type DomainError } from './errors';

// How a page (loader or form action) says "this does not exist" or "you may not": it throws a
// Response, and the error boundary of the page's layout draws the error page inside the layout,
// with the navigation, so the visitor is never left on a bare message. Services throw
// DomainErrors; these turn them into that Response in one way for every page. The JSON API maps
// the same DomainErrors onto {"detail"} answers in api.server.ts instead.

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** The Response a page throws for a domain error: its status, its detail as the page's text. */
export function pageErrorResponse(error: DomainError): Response {
  const headers = new Headers(error.headers);
  headers.set('Content-Type', 'text/plain; charset=utf-8');
  return new Response(error.detail, { status: error.status, statusText: STATUS_TEXT[error.status] ?? '', headers });
}

/**
 * Rethrows a domain error as the page's error Response and anything else as it is; for
 * `service(...).catch(pageError)` and `catch (e) { pageError(e) }`.
 */
export function pageError(error: unknown): never {
  if (isDomainError(error)) throw pageErrorResponse(error);
  throw error;
}

/** Throws the 404 page with `detail` ("Screener not found."). */
export function pageNotFound(detail: string): never {
  throw pageErrorResponse(notFound(detail));
}

/** The 404 page for an address no route (or no route parameter) matches: "Page not found: {path}". */
export function pathNotFound(request: Request): never {
  pageNotFound(`Page not found: ${new URL(request.url).pathname}`);
}

/** Awaits `work`; a domain error it fails with becomes the page's error Response. */
export function orPageError<T>(work: Promise<T>): Promise<T> {
  return work.catch(pageError);
}

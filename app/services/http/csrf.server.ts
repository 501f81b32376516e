import { DomainError } from './errors';

// Cookie-authenticated form posts must come from our own pages. Browsers send Origin on POST
// and Sec-Fetch-Site on every request; a request with neither is not from a browser page
// (curl, a server) and cannot ride on a victim's cookie, so it passes.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function assertSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  const site = request.headers.get('Sec-Fetch-Site');
  if (site && site !== 'same-origin' && site !== 'none') {
    throw new DomainError(403, 'This form was sent from another site and was refused.');
  }
  const origin = request.headers.get('Origin');
  if (origin === null) return;
  const host = request.headers.get('X-Forwarded-Host') ?? request.headers.get('Host') ?? new URL(request.url).host;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new DomainError(403, 'This form was sent from another site and was refused.');
  }
  if (originHost !== host) throw new DomainError(403, 'This form was sent from another site and was refused.');
}

import { randomBytes } from 'node:crypto';
import { config } from '../config.server';

// Security headers for every HTML document and data response.

export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(nonce: string): string {
  const gtm = config().gtmId ? ' https://www.googletagmanager.com' : '';
  // Billing: Lemon.js from exactly its configured origin, and the checkout overlay it frames.
  const billing = config().billing;
  const overlayScript = billing ? ` ${new URL(billing.overlayScriptUrl).origin}` : '';
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${gtm}${overlayScript}`,
    ...(billing ? [`frame-src ${billing.checkoutOrigin}`] : []),
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: https:`,
    `connect-src 'self'${gtm ? ' https://www.google-analytics.com' + gtm : ''}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The headers every response carries, documents or not. The HTTP server (scripts/app-server.mjs)
 * adds them to the responses no page renders (redirects, downloads, files): the server build's
 * entry module exports this function for it.
 */
export function baseSecurityHeaders(): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...(config().isProduction ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

export function applySecurityHeaders(headers: Headers, nonce?: string): void {
  if (nonce && process.env.NODE_ENV !== 'development') {
    headers.set('Content-Security-Policy', contentSecurityPolicy(nonce));
  }
  for (const [name, value] of Object.entries(baseSecurityHeaders())) headers.set(name, value);
}

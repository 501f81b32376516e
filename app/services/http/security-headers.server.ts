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

export function applySecurityHeaders(headers: Headers, nonce?: string): void {
  if (nonce && process.env.NODE_ENV !== 'development') {
    headers.set('Content-Security-Policy', contentSecurityPolicy(nonce));
  }
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  headers.set('X-Frame-Options', 'DENY');
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  if (config().isProduction) headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}

import { z } from 'zod';
import { AUTH_API } from './auth/api-contract';
import { BACKTEST_API } from './backtest/api-contract';
import { BILLING_API } from './billing/api-contract';
import { COMPANY_API } from './company/api-contract';
import { DATA_BROWSER_API } from './data-browser/api-contract';
import type { ApiOperation } from './http/api-contract';
import { openApiDocument } from './http/openapi';
import { MARKET_OVERVIEW_API } from './market-overview/api-contract';
import { METRICS_API } from './metrics/api-contract';
import { SCREENER_API } from './screener/api-contract';
import { WATCHLIST_API } from './watchlist/api-contract';

// Every operation of the JSON API, one list per folder (each folder's api-contract.ts), and the
// OpenAPI document generated from them for GET /api/openapi.json. tests/integration/openapi.test.ts
// holds the list against the route files, and every API test checks its answers against it.

const META_API: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/apiurl',
    summary: 'The API base URL the browser uses (for social sign-in)',
    access: 'public',
    answers: { 200: { description: 'The base URL', json: z.object({ url: z.string() }).strict() } },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document (OpenAPI 3.1)',
    access: 'public',
    answers: { 200: { description: 'The OpenAPI document', json: z.record(z.unknown()) } },
  },
];

export const API_OPERATIONS: readonly ApiOperation[] = [
  ...META_API,
  ...AUTH_API,
  ...METRICS_API,
  ...COMPANY_API,
  ...DATA_BROWSER_API,
  ...MARKET_OVERVIEW_API,
  ...SCREENER_API,
  ...WATCHLIST_API,
  ...BACKTEST_API,
  ...BILLING_API,
];

let document: ReturnType<typeof openApiDocument> | null = null;

/** The document, generated once per process (the schemas do not change while it runs). */
export function apiDocument(): ReturnType<typeof openApiDocument> {
  document ??= openApiDocument(API_OPERATIONS, {
    title: 'Quarry API',
    version: '1',
    description:
      'Point-in-time market data, screens, backtests, watchlists and accounts. Errors are {"detail": …}; ' +
      'dates are exchange-local YYYY-MM-DD; ratios and returns are fractions (0.12 = 12 %).',
  });
  return document;
}

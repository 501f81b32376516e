import type { LoaderFunctionArgs } from '@remix-run/node';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';

// GET /api/openapi.json: OpenAPI 3.1 description of every endpoint under /api. A test compares
// it with the route files, so an endpoint cannot be added without being documented here.

type Op = {
  summary: string;
  auth?: boolean;
  params?: string[];
  query?: Record<string, string>;
  body?: string[];
  answer: string;
  csv?: boolean;
  upload?: string[];
};

const DATE = 'YYYY-MM-DD';
const asOf = { as_of: `Point-in-time date (${DATE}); latest when absent` };
const fmt = { format: 'json (default) or csv' };

export const API_OPERATIONS: Record<string, Partial<Record<'get' | 'post' | 'patch' | 'delete', Op>>> = {
  '/api/apiurl': { get: { summary: 'The API base URL the browser uses', answer: '{url}' } },
  '/api/openapi.json': { get: { summary: 'This document', answer: 'OpenAPI 3.1' } },
  '/api/v2/auth/signup': {
    post: {
      summary: 'Create an account',
      body: ['email', 'full_name', 'password', 'password_confirmation'],
      answer: '201 {access_token, token_type}',
    },
  },
  '/api/v1/auth/signin': {
    post: { summary: 'Check the password and mail a one-time code', body: ['email', 'password'], answer: '{otp_required, email}' },
  },
  '/api/v1/auth/signin/guest': { post: { summary: 'A guest token', answer: '{access_token, token_type}' } },
  '/api/v1/auth/signin/otp/verify': {
    post: { summary: 'Exchange the mailed code for a token', body: ['token', 'email'], answer: '{access_token, token_type}' },
  },
  '/api/v1/auth/signin/{provider}': {
    get: { summary: 'Start social sign-in with a provider (redirect)', params: ['provider'], answer: '302 to the provider' },
  },
  '/api/v1/auth/logout': { post: { summary: 'Revoke the caller’s token', auth: true, answer: '204' } },
  '/api/v1/auth/reset-password': { post: { summary: 'Mail a password reset code', body: ['email'], answer: '{ok}' } },
  '/api/v1/auth/reset-password-confirm': {
    post: { summary: 'Set a new password with the code', body: ['email', 'token', 'password', 'password_confirmation'], answer: '{ok}' },
  },
  '/api/v1/auth/me': {
    get: { summary: 'The signed-in user', auth: true, answer: '{id, email, full_name, profile_picture, has_access} or {detail}' },
    patch: { summary: 'Update the profile', auth: true, body: ['full_name', 'profile_picture'], answer: 'the user' },
    delete: { summary: 'Delete the account', auth: true, answer: '204' },
  },
  '/api/v1/auth/me/picture': {
    post: {
      summary:
        'Upload a profile picture (the body is the file; at most 5 MB and 4096 × 4096 pixels; checked by its content and re-encoded)',
      auth: true,
      upload: ['image/png', 'image/jpeg', 'image/webp'],
      answer: 'the user, profile_picture set',
    },
    delete: { summary: 'Remove the profile picture', auth: true, answer: 'the user' },
  },
  '/api/v1/metrics': { get: { summary: 'The metrics catalogue', answer: '{categories, metrics}' } },
  '/api/v1/data/{permaticker}/{metric}': {
    get: {
      summary: 'A metric’s history for one company with the filing of each value',
      params: ['permaticker', 'metric'],
      query: { from: DATE, to: DATE, ...asOf, mode: 'point_in_time | first_reported | latest' },
      answer: '{permaticker, metric, mode, as_of, points}',
    },
  },
  '/api/v1/companies': {
    get: { summary: 'Search companies by ticker or name', query: { query: 'text', limit: '1–100' }, answer: '{query, results}' },
  },
  '/api/v1/companies/{id}': {
    get: { summary: 'Company profile by ticker or permaticker', params: ['id'], answer: 'profile with tickers, latest price, filings' },
  },
  '/api/v1/prices/{permaticker}': {
    get: {
      summary: 'Daily prices and corporate actions',
      params: ['permaticker'],
      query: { from: DATE, to: DATE, adjusted: 'true | false' },
      answer: '{prices, actions}',
    },
  },
  '/api/v1/company-overview/{id}': {
    get: {
      summary: 'Overview tab: key figures, 12-month prices, filings',
      params: ['id'],
      query: { ...asOf, ...fmt },
      answer: '{company, date, metrics, prices, filings}',
      csv: true,
    },
  },
  '/api/v1/company-prices/{id}': {
    get: {
      summary: 'Chart tab table: prices with moving averages',
      params: ['id'],
      query: { range: '1M | 6M | YTD | 1Y | 5Y | Max', adjusted: '1 | 0', ...asOf, ...fmt },
      answer: '{prices, sma50, sma200}',
      csv: true,
    },
  },
  '/api/v1/financials/{id}': {
    get: {
      summary: 'Financial statements with the filing of every value',
      params: ['id'],
      query: { statement: 'income | balance | cash_flow', period: 'annual | quarterly | ttm', ...asOf, ...fmt },
      answer: '{statement: {columns, lines, growth, margins}}',
      csv: true,
    },
  },
  '/api/v1/dividends/{id}': {
    get: {
      summary: 'Dividend history, annual totals, yield, growth, payout',
      params: ['id'],
      query: { ...asOf, ...fmt },
      answer: '{metrics, history, annual, splits}',
      csv: true,
    },
  },
  '/api/v1/valuation/{id}': {
    get: {
      summary: 'Valuation multiples over time vs 5-year average and sector median',
      params: ['id'],
      query: { ...asOf, ...fmt },
      answer: '{sector, series}',
      csv: true,
    },
  },
  '/api/v1/data-browser/{permaticker}/{metric}': {
    get: {
      summary: 'Data browser table: one metric for up to 10 companies',
      params: ['permaticker', 'metric'],
      query: {
        compare: 'comma-separated permatickers',
        mode: 'latest | first_reported | point_in_time',
        from: DATE,
        to: DATE,
        ...asOf,
        ...fmt,
      },
      answer: '{metric, companies, rows, series}',
      csv: true,
    },
  },
  '/api/v1/market-overview': {
    get: {
      summary: 'Home page market overview',
      query: { ...asOf, ...fmt, table: 'sectors | movers | filings (CSV)' },
      answer: '{benchmark, sectors, gainers, losers, filings}',
      csv: true,
    },
  },
  '/api/v1/backtests': {
    get: {
      summary: 'The caller’s backtests, newest first',
      auth: true,
      query: { screener_id: 'only the backtests of this saved screener' },
      answer: 'list of {id, name, screener_id, status, progress, created_at, params, summary}',
    },
    post: {
      summary: 'Queue a backtest of a saved screener or an inline screen',
      auth: true,
      body: ['screener_id', 'screen', 'params', 'name'],
      answer: '202 the backtest (status queued)',
    },
  },
  '/api/v1/backtests/{id}': {
    get: {
      summary: 'A backtest: status, progress and, once done, the result',
      auth: true,
      params: ['id'],
      answer: '{id, status, progress, params, screen, snapshot_id, engine_version, result}',
    },
    patch: {
      summary: 'Share or unshare a backtest, or cancel its run',
      auth: true,
      params: ['id'],
      body: ['shared', 'cancel'],
      answer: 'the backtest',
    },
    delete: { summary: 'Delete a backtest', auth: true, params: ['id'], answer: '204' },
  },
  '/api/v1/screener/run': {
    post: { summary: 'Run a screen', auth: true, body: ['screen', 'as_of', 'page_size', 'explain'], answer: 'one page of results' },
  },
  '/api/v1/screeners': {
    get: { summary: 'The caller’s saved screeners', auth: true, answer: 'list' },
    post: { summary: 'Save a screener', auth: true, body: ['name', 'screen'], answer: '201 the screener' },
  },
  '/api/v1/screeners/{id}': {
    get: { summary: 'A saved screener', auth: true, params: ['id'], answer: 'the screener' },
    patch: { summary: 'Update a saved screener', auth: true, params: ['id'], body: ['name', 'screen', 'shared'], answer: 'the screener' },
    delete: { summary: 'Delete a saved screener', auth: true, params: ['id'], answer: '204' },
  },
  '/api/v1/watchlists': {
    get: { summary: 'The caller’s watchlists', auth: true, answer: 'list' },
    post: { summary: 'Create a watchlist', auth: true, body: ['name', 'columns'], answer: '201 the list' },
  },
  '/api/v1/watchlists/{id}': {
    get: { summary: 'A watchlist with its rows', auth: true, params: ['id'], answer: 'the list' },
    patch: {
      summary: 'Update a watchlist',
      auth: true,
      params: ['id'],
      body: ['name', 'columns', 'sort', 'is_default'],
      answer: 'the list',
    },
    delete: { summary: 'Delete a watchlist', auth: true, params: ['id'], answer: '204' },
  },
  '/api/v1/watchlists/{id}/items': {
    get: { summary: 'Items of a watchlist', auth: true, params: ['id'], answer: '[{permaticker, note, added_at}]' },
    post: { summary: 'Add a company', auth: true, params: ['id'], body: ['permaticker', 'note'], answer: '201 added, 200 already there' },
  },
  '/api/v1/subscription/': {
    get: {
      summary: 'The caller’s subscriptions and the plans on offer (404 when billing is off)',
      auth: true,
      answer:
        '{subscriptions: [{id, status, status_label, variant_id, plan_name, cancelled, trial_ends_at, renews_at, ends_at, grants_access, created_at, updated_at}], plans: [plan]}',
    },
  },
  '/api/v1/subscription/{subscription_id}': {
    get: {
      summary: 'One of the caller’s subscriptions, read fresh from the provider',
      auth: true,
      params: ['subscription_id'],
      answer: 'the subscription with urls {customer_portal, update_payment_method}',
    },
  },
  '/api/v1/variant/{variant_id}': {
    get: {
      summary: 'A plan on offer (configured variants only)',
      auth: true,
      params: ['variant_id'],
      answer: '{id, name, price (cents), currency, price_formatted, interval, interval_count, interval_label}',
    },
  },
  '/api/v1/order/init-checkout': {
    post: {
      summary: 'Create a hosted checkout for a plan',
      auth: true,
      body: ['variant_id'],
      answer: '{checkout_url}; 409 with an active subscription; 502/503 when the provider fails',
    },
  },
  '/api/v1/billing/webhook': {
    post: {
      summary: 'Payment provider webhook (X-Signature: hex HMAC-SHA256 of the raw body)',
      answer: '{received: true}; 401 bad signature; 400 malformed body',
    },
  },
  '/api/v1/watchlists/{id}/items/{permaticker}': {
    patch: { summary: 'Change an item’s note', auth: true, params: ['id', 'permaticker'], body: ['note'], answer: 'the item' },
    delete: { summary: 'Remove a company', auth: true, params: ['id', 'permaticker'], answer: '204' },
  },
};

const errorResponse = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

export function openApiDocument() {
  const paths: Record<string, unknown> = {};
  for (const [path, ops] of Object.entries(API_OPERATIONS)) {
    const item: Record<string, unknown> = {};
    for (const [method, op] of Object.entries(ops)) {
      if (!op) continue;
      const content: Record<string, unknown> = { 'application/json': { schema: { type: 'object', description: op.answer } } };
      if (op.csv) content['text/csv'] = { schema: { type: 'string', description: 'The same table as CSV (format=csv)' } };
      item[method] = {
        summary: op.summary,
        ...(op.auth ? { security: [{ bearer: [] }] } : {}),
        parameters: [
          ...(op.params ?? []).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
          ...Object.entries(op.query ?? {}).map(([name, description]) => ({
            name,
            in: 'query',
            required: false,
            description,
            schema: { type: 'string' },
          })),
        ],
        ...(op.body
          ? {
              requestBody: {
                content: {
                  'application/json': { schema: { type: 'object', properties: Object.fromEntries(op.body.map((b) => [b, {}])) } },
                },
              },
            }
          : {}),
        ...(op.upload
          ? {
              requestBody: {
                required: true,
                content: Object.fromEntries(op.upload.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
              },
            }
          : {}),
        responses: {
          '200': { description: op.answer, content },
          '400': errorResponse,
          '401': errorResponse,
          '404': errorResponse,
          ...(op.upload ? { '413': errorResponse, '415': errorResponse } : {}),
          '422': errorResponse,
          '429': errorResponse,
        },
      };
    }
    paths[path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quarry API',
      version: '1',
      description: 'Point-in-time market data, screens, watchlists and accounts. Errors are {"detail": ...}.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: <token_type> <access_token>' } },
      schemas: { Error: { type: 'object', required: ['detail'], properties: { detail: {}, errors: { type: 'object' } } } },
    },
    paths,
  };
}

export const loader = (_: LoaderFunctionArgs) => handleApi(async () => jsonResponse(openApiDocument()));
export const action = () => methodNotAllowed(['GET']);

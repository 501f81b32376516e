import { z } from 'zod';
import { IdParam, IsoDateSchema, named, PermatickerField, TimestampSchema, type ApiOperation, type Fits } from '../http/api-contract';
import type { Explanation } from './engine';
import { ScreenSchema } from './model';

// The screener part of the JSON API (api.v1.screener.run, api.v1.screeners.*). The routes read a
// body's screen apart (screenOrThrow: the same schema and messages as a screen in the URL), so the
// documented bodies are the routes' schemas with the screen's own schema in place.

export const ScreenJson = named('Screen', ScreenSchema);

export const ScreenerJson = named(
  'Screener',
  z
    .object({
      id: z.string(),
      name: z.string(),
      screen: ScreenJson,
      share_token: z.string().nullable(),
      last_run_at: TimestampSchema.nullable(),
      last_match_count: z.number().int().nullable(),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
    })
    .strict(),
);

const ResultRowJson = z
  .object({
    permaticker: PermatickerField,
    ticker: z.string(),
    name: z.string(),
    exchange: z.string().nullable(),
    sector: z.string().nullable(),
    industry: z.string().nullable(),
    rank: z.number().int().nullable().describe('1 = best by the ranking; null without one'),
    score: z.number().nullable().describe('Composite score in [0, 1]; null without a ranking'),
    values: z.record(z.number().nullable()).describe('Column metrics; null = n/a'),
  })
  .strict();

const CheckJson = z
  .object({
    label: z.string(),
    passes: z.boolean(),
    values: z.array(
      z.object({ label: z.string(), metric: z.string().nullable(), value: z.union([z.number(), z.string()]).nullable() }).strict(),
    ),
    detail: z.string(),
  })
  .strict();

const ExplanationJson = z
  .object({
    asOf: IsoDateSchema,
    permaticker: PermatickerField,
    ticker: z.string().nullable(),
    name: z.string().nullable(),
    inSnapshot: z.boolean(),
    universe: z.array(CheckJson),
    rules: z.array(CheckJson),
    passes: z.boolean(),
    rank: z.number().int().nullable(),
  })
  .strict();
const _explanation: Fits<Explanation, typeof ExplanationJson> = true;

export const PageJson = z
  .object({
    as_of: IsoDateSchema,
    universe_count: z.number().int(),
    count: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
    page_count: z.number().int(),
    columns: z.array(z.string()),
    rows: z.array(ResultRowJson),
  })
  .strict();

export const ColumnSetJson = named(
  'ColumnSet',
  z
    .object({
      id: z.string(),
      name: z.string(),
      columns: z.array(z.string()).describe('Metric ids (GET /api/v1/metrics), in the order the results show them'),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
    })
    .strict(),
);

// Column lists are checked by the service (column-sets.ts): too many, unknown or none is a 400
// that names the problem; here only their shape.
const ColumnList = z.array(z.string().max(200)).max(10_000);
export const ColumnSetCreateBody = z.object({ name: z.string().max(1000), columns: ColumnList }).strict();
export const ColumnSetPatchBody = z.object({ name: z.string().max(1000).optional(), columns: ColumnList.optional() }).strict();

// Bodies as the routes read them; a body's screen is read apart (api.server.ts screenOrThrow).
export const ScreenerCreateBody = z.object({ name: z.string().max(1000), screen: z.unknown() });
export const ScreenerPatchBody = z
  .object({ name: z.string().max(1000).optional(), screen: z.unknown().optional(), shared: z.boolean().optional() })
  .strict();
export const RunBody = z.object({
  screen: z.unknown(),
  as_of: z.string().max(20).optional(),
  page_size: z.number().int().min(1).max(1000).optional(),
  explain: z.number().int().positive().optional(),
});

export const SCREENER_API: readonly ApiOperation[] = [
  {
    method: 'post',
    path: '/api/v1/screener/run',
    summary: 'Run a screen: one page of results and, with explain, why one security passes or not',
    access: 'account',
    body: RunBody.extend({ screen: ScreenJson }),
    answers: {
      200: {
        description: 'One page of results',
        json: PageJson.extend({ explanation: ExplanationJson.optional() }).strict(),
      },
    },
    errors: [503],
  },
  {
    method: 'get',
    path: '/api/v1/screeners',
    summary: 'The caller’s saved screeners',
    access: 'account',
    answers: { 200: { description: 'The screeners', json: z.array(ScreenerJson) } },
  },
  {
    method: 'post',
    path: '/api/v1/screeners',
    summary: 'Save a screener',
    access: 'account',
    body: ScreenerCreateBody.extend({ screen: ScreenJson }),
    answers: { 201: { description: 'The saved screener', json: ScreenerJson } },
    errors: [409],
  },
  {
    method: 'get',
    path: '/api/v1/screeners/{id}',
    summary: 'A saved screener',
    access: 'account',
    params: IdParam,
    answers: { 200: { description: 'The screener', json: ScreenerJson } },
  },
  {
    method: 'patch',
    path: '/api/v1/screeners/{id}',
    summary: 'Rename, change the screen, or share or unshare a saved screener',
    access: 'account',
    params: IdParam,
    body: ScreenerPatchBody.extend({ screen: ScreenJson.optional() }),
    answers: { 200: { description: 'The screener', json: ScreenerJson } },
  },
  {
    method: 'delete',
    path: '/api/v1/screeners/{id}',
    summary: 'Delete a saved screener',
    access: 'account',
    params: IdParam,
    answers: { 204: { description: 'Deleted' } },
  },
  {
    method: 'get',
    path: '/api/v1/screener/column-sets',
    summary: 'The caller’s saved column sets of the screener results',
    access: 'account',
    answers: { 200: { description: 'The column sets, by name', json: z.array(ColumnSetJson) } },
  },
  {
    method: 'post',
    path: '/api/v1/screener/column-sets',
    summary: 'Save a column set (1–30 metric ids or labels, kept as ids; a name of 1–100 characters)',
    access: 'account',
    body: ColumnSetCreateBody,
    answers: { 201: { description: 'The saved column set', json: ColumnSetJson } },
    errors: [409],
  },
  {
    method: 'get',
    path: '/api/v1/screener/column-sets/{id}',
    summary: 'A saved column set',
    access: 'account',
    params: IdParam,
    answers: { 200: { description: 'The column set', json: ColumnSetJson } },
  },
  {
    method: 'patch',
    path: '/api/v1/screener/column-sets/{id}',
    summary: 'Rename a column set or change its columns',
    access: 'account',
    params: IdParam,
    body: ColumnSetPatchBody,
    answers: { 200: { description: 'The column set', json: ColumnSetJson } },
  },
  {
    method: 'delete',
    path: '/api/v1/screener/column-sets/{id}',
    summary: 'Delete a saved column set',
    access: 'account',
    params: IdParam,
    answers: { 204: { description: 'Deleted' } },
  },
];

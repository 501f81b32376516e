import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z, type AnyZodObject, type ZodEffects, type ZodTypeAny } from 'zod';
import { AsOfField } from './as-of';

// The contract of the JSON API: each operation names its method, path, who may call it and the
// zod schemas of its path parameters, query, body and answers. The routes parse with the same
// schemas, the OpenAPI document (/api/openapi.json) is generated from them
// (services/api-operations.ts composes every folder's list), and the API integration tests check
// every answer against them (tests/support/api-contract.ts).

// zod-to-openapi keeps names and descriptions in a method it adds to zod's types.
extendZodWithOpenApi(z);

export type ApiMethod = 'get' | 'post' | 'patch' | 'delete';

/**
 * public: anyone; token: any token, a guest's included; account: a signed-in account's token
 * (a guest token is 403); signature: the caller proves itself another way (the billing webhook).
 */
/**
 * public: anyone. token: any valid token, a guest's included. account: a signed-in account the
 * access rules let in (auth/access-rules.ts). rules: the access rules decide, and a call without
 * a token counts as a guest's while guest mode is on.
 */
export type ApiAccess = 'public' | 'token' | 'account' | 'rules' | 'signature';

export type ObjectSchema = AnyZodObject | ZodEffects<AnyZodObject> | ZodEffects<ZodEffects<AnyZodObject>>;

export type ApiAnswer = {
  description: string;
  /** The JSON body; absent for an answer without one (204, a redirect). */
  json?: ZodTypeAny;
  /** The same table as CSV with ?format=csv. */
  csv?: boolean;
};

export type ApiOperation = {
  method: ApiMethod;
  /** OpenAPI path template: /api/v1/watchlists/{id}. */
  path: string;
  summary: string;
  /** What the summary leaves out (defaults, headers honoured). */
  description?: string;
  access: ApiAccess;
  params?: ObjectSchema;
  query?: ObjectSchema;
  /** A JSON body (urlencoded is accepted too). */
  body?: ZodTypeAny;
  /** The body is a file of one of these media types. */
  upload?: readonly string[];
  answers: Partial<Record<200 | 201 | 202 | 204 | 302 | 304, ApiAnswer>>;
  /** Error statuses beyond the ones every such operation can answer (see errorStatuses). */
  errors?: readonly number[];
};

/** The one error answer of the API: {"detail": …}, field errors under `errors`. */
export const ApiErrorSchema = named(
  'Error',
  z
    .object({
      detail: z.string(),
      errors: z.record(z.array(z.string())).optional().describe('Messages per field, for 400 and 422'),
    })
    .strict(),
);

/** A schema under its own name in the document's components (a client gets a named type). */
export function named<T extends ZodTypeAny>(name: string, schema: T): T {
  return schema.openapi(name);
}

/**
 * Compile-time proof that what a service returns fits the schema that documents it: write
 * `const _fits: Fits<ServiceType, typeof Schema> = true;` beside the schema.
 */
export type Fits<Value, Schema extends ZodTypeAny> = [Value] extends [z.input<Schema>] ? true : false;

/** The statuses an operation can answer besides its own list: from its access and its inputs. */
export function errorStatuses(op: ApiOperation): number[] {
  const statuses = new Set<number>(op.errors ?? []);
  if (op.access !== 'public') statuses.add(401);
  if (op.access === 'account' || op.access === 'rules') statuses.add(403);
  if (op.params) statuses.add(404);
  if (op.query) statuses.add(422);
  if (op.body) [400, 413, 415, 422].forEach((s) => statuses.add(s));
  if (op.upload) [413, 415, 422].forEach((s) => statuses.add(s));
  return [...statuses].sort((a, b) => a - b);
}

// Pieces many operations share.

/** The bodiless answer of a market data GET whose If-None-Match names the current ETag (market-caching.ts). */
export const NOT_MODIFIED: ApiAnswer = {
  description: 'Not modified: If-None-Match names the current market data version (the ETag of a 200)',
};

/** Dates in the API are exchange-local days. */
export const IsoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe('YYYY-MM-DD');
/** Times of records (created, updated) are ISO-8601 instants in UTC. */
export const TimestampSchema = z.string().describe('ISO-8601 time in UTC');
export const PermatickerField = z.number().int().positive().describe('Permanent security id (survives ticker changes)');

export const PermatickerParam = z.object({ permaticker: z.string().regex(/^\d+$/).describe('Permaticker') });
export const IdParam = z.object({ id: z.string().max(64) });
/** A company by ticker or permaticker. */
export const CompanyIdParam = z.object({ id: z.string().max(64).describe('Ticker or permaticker') });

export const AsOfQuery = z.object({
  as_of: AsOfField.describe('Point in time (YYYY-MM-DD): only what was known that day; latest when absent'),
});
export const FormatQuery = z.object({
  format: z.enum(['json', 'csv']).default('json').describe('json, or csv for the same table as a download'),
});

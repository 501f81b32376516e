import { z } from 'zod';
import { AsOfQuery, FormatQuery, IsoDateSchema, type ApiOperation, type Fits, NOT_MODIFIED } from '../http/api-contract';
import { SecurityJson } from '../market/store/security-json';
import type { MarketOverview } from './market-overview.server';

// The home page's data in the JSON API (api.v1.market-overview).

/** Which of the home page's tables the CSV holds. */
export const MarketTableQuery = z.object({
  table: z.enum(['sectors', 'movers', 'filings']).default('sectors').describe('The table of the CSV download'),
});

const Named = SecurityJson.pick({ permaticker: true, ticker: true, name: true, is_demo: true });
const MoverJson = Named.extend({ price: z.number().nullable(), change: z.number().nullable().describe('1-day return') }).strict();

const MarketOverviewJson = z
  .object({
    as_of: IsoDateSchema.nullable(),
    date: IsoDateSchema.nullable().describe('Last trading day on or before the as-of date'),
    snapshotDate: IsoDateSchema.nullable(),
    benchmark: z.array(z.object({ date: IsoDateSchema, value: z.number() }).strict()),
    benchmarkReturn: z.number().nullable(),
    sectors: z.array(
      z
        .object({
          sector: z.string(),
          companies: z.number().int(),
          medianReturn1m: z.number().nullable(),
          medianReturnYtd: z.number().nullable(),
          medianReturn1y: z.number().nullable(),
          averageReturn1y: z.number().nullable(),
        })
        .strict(),
    ),
    gainers: z.array(MoverJson),
    losers: z.array(MoverJson),
    filings: z.array(
      Named.extend({
        form: z.string().nullable(),
        filed: IsoDateSchema,
        accession: z.string().nullable(),
        url: z.string().nullable(),
      }).strict(),
    ),
    companies: z.number().int(),
    hasDemo: z.boolean(),
  })
  .strict();
const _overview: Fits<MarketOverview & { as_of: string | null }, typeof MarketOverviewJson> = true;

export const MARKET_OVERVIEW_API: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/market-overview',
    summary: 'The home page: benchmark, sectors, movers and recent filings',
    access: 'rules',
    query: AsOfQuery.merge(FormatQuery).merge(MarketTableQuery),
    answers: {
      200: { description: 'The overview (CSV: the table named by table)', csv: true, json: MarketOverviewJson },
      304: NOT_MODIFIED,
    },
  },
];

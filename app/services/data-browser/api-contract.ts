import { z } from 'zod';
import { FormatQuery, IsoDateSchema, type ApiOperation, type Fits, NOT_MODIFIED } from '../http/api-contract';
import { SecurityJson } from '../market/store/security-json';
import { MetricRefJson } from '../metrics/api-contract';
import { MODES, ViewSchema, type SeriesInput, type TableRow } from './data-browser';
import type { BrowserCompany } from './data-browser.server';

// The data browser's table in the JSON API (api.v1.data-browser.$permaticker.$metric): the same
// query as the page (data-browser.ts), one metric for up to ten companies.

const BrowserCompanyJson = SecurityJson.pick({ permaticker: true, ticker: true, name: true, is_demo: true }).strict();
const _company: Fits<BrowserCompany, typeof BrowserCompanyJson> = true;

const SeriesJson = z
  .object({
    permaticker: z.number().int(),
    ticker: z.string(),
    points: z.array(
      z
        .object({ date: IsoDateSchema, value: z.number().nullable(), filed: IsoDateSchema.nullable(), accession: z.string().nullable() })
        .strict(),
    ),
  })
  .strict();
const _series: Fits<SeriesInput, typeof SeriesJson> = true;

const RowJson = z.object({ date: IsoDateSchema, values: z.array(z.number().nullable()).describe('One value per company') }).strict();
const _row: Fits<TableRow, typeof RowJson> = true;

export const DATA_BROWSER_API: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/data-browser/{permaticker}/{metric}',
    summary: 'The data browser’s table: one metric for up to ten companies',
    access: 'rules',
    params: z.object({ permaticker: z.string().regex(/^\d+$/), metric: z.string().max(64) }),
    query: ViewSchema.innerType().merge(FormatQuery),
    answers: {
      200: {
        description: 'The table (CSV: exactly the page’s table, newest first)',
        csv: true,
        json: z
          .object({
            metric: MetricRefJson,
            companies: z.array(BrowserCompanyJson),
            mode: z.enum(MODES),
            from: IsoDateSchema.nullable(),
            to: IsoDateSchema.nullable(),
            as_of: IsoDateSchema.nullable(),
            rows: z.array(RowJson),
            series: z.array(SeriesJson),
          })
          .strict(),
      },
      304: NOT_MODIFIED,
    },
  },
];

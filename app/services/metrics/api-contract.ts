import { z } from 'zod';
import { isIsoDate } from '../dates';
import { AsOfField } from '../http/as-of';
import { IsoDateSchema, named, PermatickerField, type ApiOperation, type Fits, NOT_MODIFIED } from '../http/api-contract';
import { CATEGORY_LABELS, METRIC_FORMATS, METRIC_FREQUENCIES, METRIC_UNITS, type MetricCategory, type MetricDefinition } from './catalogue';
import type { SeriesPoint } from './engine/series';

// The metrics part of the JSON API: the catalogue (api.v1.metrics) and one metric's history
// (api.v1.data.$permaticker.$metric).

const CATEGORIES = Object.keys(CATEGORY_LABELS) as [MetricCategory, ...MetricCategory[]];

/** How a metric is shown beside its values (the data and data-browser answers). */
export const MetricRefJson = named(
  'MetricRef',
  z
    .object({
      id: z.string(),
      label: z.string(),
      unit: z.enum(METRIC_UNITS),
      format: z.enum(METRIC_FORMATS).describe('How the pages show it (percent: the value is a fraction)'),
      frequency: z.enum(METRIC_FREQUENCIES),
    })
    .strict(),
);
const _ref: Fits<Pick<MetricDefinition, 'id' | 'label' | 'unit' | 'format' | 'frequency'>, typeof MetricRefJson> = true;

const MetricJson = named(
  'Metric',
  MetricRefJson.extend({
    category: z.enum(CATEGORIES),
    definition: z.string().describe('Formula and the concepts it reads'),
    higher_is_better: z.boolean().nullable(),
    concepts: z.array(z.string()).describe('Fundamental concepts it reads (empty for price-only metrics)'),
  }).strict(),
);

const SeriesPointJson = z
  .object({
    date: IsoDateSchema,
    value: z.number().nullable(),
    filed: IsoDateSchema.nullable().describe('Filed date of the newest filing the value rests on'),
    accession: z.string().nullable(),
  })
  .strict();
const _point: Fits<SeriesPoint, typeof SeriesPointJson> = true;

const isoDate = z.string().refine(isIsoDate, 'Must be a date as YYYY-MM-DD.');

/** The query of /api/v1/data/{permaticker}/{metric}, as the route parses it. */
export const MetricDataQuery = z
  .object({
    from: isoDate.optional(),
    to: isoDate.optional(),
    as_of: AsOfField,
    mode: z
      .enum(['point_in_time', 'first_reported', 'latest'])
      .default('point_in_time')
      .describe('point_in_time: what was known each day; first_reported; latest: as restated'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: '`from` must not be after `to`.',
    path: ['from'],
  });

export const METRICS_API: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/metrics',
    summary: 'The metrics catalogue',
    access: 'rules',
    answers: {
      200: {
        description: 'Categories and metrics',
        json: z
          .object({ categories: z.array(z.object({ id: z.enum(CATEGORIES), label: z.string() }).strict()), metrics: z.array(MetricJson) })
          .strict(),
      },
    },
  },
  {
    method: 'get',
    path: '/api/v1/data/{permaticker}/{metric}',
    summary: 'A metric’s history for one company, with the filing of each value',
    access: 'rules',
    params: z.object({ permaticker: z.string().regex(/^\d+$/), metric: z.string().max(64).describe('A metric id of the catalogue') }),
    query: MetricDataQuery,
    answers: {
      200: {
        description: 'The history',
        json: z
          .object({
            permaticker: PermatickerField,
            metric: MetricRefJson,
            mode: z.enum(['point_in_time', 'first_reported', 'latest']),
            as_of: IsoDateSchema.nullable(),
            points: z.array(SeriesPointJson),
          })
          .strict(),
      },
      304: NOT_MODIFIED,
    },
    errors: [503],
  },
];

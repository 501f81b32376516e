import { z } from 'zod';
import { IsoDateSchema, named, PermatickerField, type Fits } from '../../http/api-contract';
import type { SecurityColumns } from './security';

// A security as the JSON API spells it (the securities table's columns, security.ts); every
// answer that names companies picks its fields from this one schema.

export const SecurityJson = named(
  'Security',
  z
    .object({
      permaticker: PermatickerField,
      ticker: z.string(),
      name: z.string(),
      exchange: z.string().nullable(),
      category: z.string().nullable(),
      sector: z.string().nullable(),
      industry: z.string().nullable(),
      cik: z.string().nullable(),
      currency: z.string(),
      description: z.string().nullable(),
      first_price_date: IsoDateSchema.nullable(),
      last_price_date: IsoDateSchema.nullable(),
      is_delisted: z.boolean(),
      is_demo: z.boolean().describe('Part of the fictional demo universe'),
      source: z.string().describe('The importer that wrote it'),
    })
    .strict(),
);
const _security: Fits<SecurityColumns, typeof SecurityJson> = true;

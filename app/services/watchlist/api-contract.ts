import { z } from 'zod';
import { IdParam, IsoDateSchema, named, PermatickerField, TimestampSchema, type ApiOperation, type Fits } from '../http/api-contract';
import type { itemJson, rowJson, watchlistJson } from './api.server';
import { ItemCreateBody, ItemPatchBody, WatchlistCreateBody, WatchlistPatchBody } from './api.server';
import { WatchlistSortSchema } from './model';

// The watchlist part of the JSON API (api.v1.watchlists.*).

export const WatchlistJson = named(
  'Watchlist',
  z
    .object({
      id: z.string(),
      name: z.string(),
      is_default: z.boolean(),
      columns: z.array(z.string()).describe('Metric ids shown as columns'),
      sort: WatchlistSortSchema,
      item_count: z.number().int(),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
    })
    .strict(),
);
const _watchlist: Fits<ReturnType<typeof watchlistJson>, typeof WatchlistJson> = true;

export const WatchlistItemJson = named(
  'WatchlistItem',
  z.object({ permaticker: PermatickerField, note: z.string().nullable(), added_at: TimestampSchema }).strict(),
);
const _item: Fits<ReturnType<typeof itemJson>, typeof WatchlistItemJson> = true;

const WatchlistRowJson = named(
  'WatchlistRow',
  z
    .object({
      permaticker: PermatickerField,
      ticker: z.string(),
      name: z.string(),
      sector: z.string().nullable(),
      note: z.string().nullable(),
      added_at: TimestampSchema,
      values: z.record(z.number().nullable()).describe('Latest value of each column metric; null = n/a'),
    })
    .strict(),
);
const _row: Fits<ReturnType<typeof rowJson>, typeof WatchlistRowJson> = true;

const WatchlistWithRows = WatchlistJson.extend({
  as_of: IsoDateSchema.nullable().describe('Date of the values (null without market data)'),
  rows: z.array(WatchlistRowJson),
}).strict();

const ItemParams = IdParam.extend({ permaticker: z.string().regex(/^\d+$/) });

export const WATCHLIST_API: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/watchlists',
    summary: 'The caller’s watchlists (a default one is made on first use)',
    access: 'account',
    answers: { 200: { description: 'The lists', json: z.array(WatchlistJson) } },
  },
  {
    method: 'post',
    path: '/api/v1/watchlists',
    summary: 'Create a watchlist',
    access: 'account',
    body: WatchlistCreateBody,
    answers: { 201: { description: 'The new list', json: WatchlistJson } },
    errors: [409],
  },
  {
    method: 'get',
    path: '/api/v1/watchlists/{id}',
    summary: 'A watchlist with its rows (latest values of its columns)',
    access: 'account',
    params: IdParam,
    answers: { 200: { description: 'The list and its rows', json: WatchlistWithRows } },
  },
  {
    method: 'patch',
    path: '/api/v1/watchlists/{id}',
    summary: 'Rename, change columns or sort, or make it the default',
    access: 'account',
    params: IdParam,
    body: WatchlistPatchBody,
    answers: { 200: { description: 'The list', json: WatchlistJson } },
  },
  {
    method: 'delete',
    path: '/api/v1/watchlists/{id}',
    summary: 'Delete a watchlist',
    access: 'account',
    params: IdParam,
    answers: { 204: { description: 'Deleted' } },
  },
  {
    method: 'get',
    path: '/api/v1/watchlists/{id}/items',
    summary: 'The companies on a watchlist',
    access: 'account',
    params: IdParam,
    answers: { 200: { description: 'The items', json: z.array(WatchlistItemJson) } },
  },
  {
    method: 'post',
    path: '/api/v1/watchlists/{id}/items',
    summary: 'Add a company',
    access: 'account',
    params: IdParam,
    body: ItemCreateBody,
    answers: {
      201: { description: 'Added', json: WatchlistItemJson },
      200: { description: 'It was already there', json: WatchlistItemJson },
    },
    errors: [409, 503],
  },
  {
    method: 'patch',
    path: '/api/v1/watchlists/{id}/items/{permaticker}',
    summary: 'Change an item’s note',
    access: 'account',
    params: ItemParams,
    body: ItemPatchBody,
    answers: { 200: { description: 'The item', json: WatchlistItemJson } },
  },
  {
    method: 'delete',
    path: '/api/v1/watchlists/{id}/items/{permaticker}',
    summary: 'Remove a company',
    access: 'account',
    params: ItemParams,
    answers: { 204: { description: 'Removed' } },
  },
];

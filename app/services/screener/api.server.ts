import type { Fits } from '../http/api-contract';
import { unprocessable } from '../http/errors';
import type { ColumnSetJson, PageJson, ScreenerJson } from './api-contract';
import type { ColumnSet } from './column-sets.server';
import type { ScreenPage } from './engine';
import type { Screen } from './model';
import type { SavedScreener } from './saved.server';
import { screenFromJson } from './url';

// Shapes of the screener JSON API: snake_case records like the rest of the API; the screen
// inside is the versioned screen JSON of model.ts.

export function screenOrThrow(value: unknown): Screen {
  const parsed = screenFromJson(value);
  if (parsed.ok) return parsed.screen;
  const errors: Record<string, string[]> = {};
  for (const e of parsed.errors) (errors[`screen.${e.param}`] ??= []).push(e.message);
  throw unprocessable(`Invalid screen: ${parsed.errors[0]?.message ?? 'unreadable'}`, errors);
}

export function screenerJson(s: SavedScreener) {
  return {
    id: s.id,
    name: s.name,
    screen: s.screen,
    share_token: s.shareToken,
    last_run_at: s.lastRunAt,
    last_match_count: s.lastMatchCount,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

export function pageJson(p: ScreenPage) {
  return {
    as_of: p.asOf,
    universe_count: p.universeCount,
    count: p.count,
    page: p.page,
    page_size: p.pageSize,
    page_count: p.pageCount,
    columns: p.columns,
    rows: p.rows,
  };
}

// What the serializers return fits the documented answers (api-contract.ts, which as a pure
// module of the screener cannot import this file).
const _screener: Fits<ReturnType<typeof screenerJson>, typeof ScreenerJson> = true;
const _page: Fits<ReturnType<typeof pageJson>, typeof PageJson> = true;

export function columnSetJson(s: ColumnSet) {
  return { id: s.id, name: s.name, columns: s.columns, created_at: s.createdAt, updated_at: s.updatedAt };
}
const _columnSet: Fits<ReturnType<typeof columnSetJson>, typeof ColumnSetJson> = true;

import { z } from 'zod';
import { unprocessable } from '../http/errors';
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

import { asOfParam, parseAsOf } from '../http/as-of';
import { isDomainError, unprocessable } from '../http/errors';
import type { Explanation, ScreenPage } from './engine';
import { displaySort, type Screen, type Sort } from './model';
import { pageSizeParam } from './page-size';
import { presetById } from './presets';
import { explainScreen, runScreen, universeChoices } from './run.server';
import { getScreener } from './saved.server';
import { screenFromSearchParams, screenToSearchParams, type ScreenQueryError } from './url';

// Everything /screener (and its CSV) shows for one URL: the screen it encodes, its problems, one
// page of results as of the date (or all of them, for the CSV), an explanation, and the saved
// screener it came from. It only reads: running a saved screener is recorded by its POST
// (saved-runs.server.ts).

export type ScreenerPageData = {
  screen: Screen;
  /** The order the results are shown in (the screen's own, or the default). */
  sort: Sort;
  /** Canonical screen query (without page params). */
  query: string;
  ruleTexts: string[];
  errors: ScreenQueryError[];
  asOfParam: string;
  results: ScreenPage | null;
  unavailable: string | null;
  choices: { exchanges: string[]; sectors: string[]; industries: string[] };
  /** Rows per page (PAGE_SIZES). */
  pageSize: number;
  explanation: Explanation | null;
  saved: { id: string; name: string } | null;
};

export function presetQuery(id: string): string | null {
  const p = presetById(id);
  return p ? screenToSearchParams(p.screen).toString() : null;
}

export async function screenerPageData(
  search: URLSearchParams,
  userId: string | null,
  opts: { pageSize?: number | 'all' } = {},
): Promise<ScreenerPageData> {
  const parsed = screenFromSearchParams(search);
  const errors = parsed.ok ? [] : [...parsed.errors];
  const screen = parsed.screen;
  const parsedAsOf = parseAsOf(asOfParam(search));
  if (!parsedAsOf.ok) errors.push({ param: 'as_of', message: `As of: ${parsedAsOf.message}` });
  const asOf = (parsedAsOf.ok && parsedAsOf.asOf) || 'latest';
  let results: ScreenPage | null = null;
  let unavailable: string | null = null;
  let choices = { exchanges: [] as string[], sectors: [] as string[], industries: [] as string[] };
  let explanation: Explanation | null = null;
  try {
    // The universe pickers keep their choices while a rule is being fixed.
    choices = await universeChoices();
  } catch (e) {
    if (!isDomainError(e) || (e.status >= 500 && e.status !== 503)) throw e;
  }
  if (errors.length === 0) {
    try {
      results = await runScreen(opts.pageSize === 'all' ? { ...screen, page: 1 } : screen, {
        asOf,
        pageSize: opts.pageSize ?? pageSizeParam(search),
      });
      const explain = Number(search.get('explain'));
      if (Number.isInteger(explain) && explain > 0) explanation = await explainScreen(screen, explain, { asOf });
    } catch (e) {
      if (!isDomainError(e) || (e.status >= 500 && e.status !== 503)) throw e;
      unavailable = e.detail;
    }
  }
  let saved: ScreenerPageData['saved'] = null;
  const savedId = search.get('saved');
  if (userId && savedId) {
    try {
      const s = await getScreener(userId, savedId);
      saved = { id: s.id, name: s.name };
    } catch (e) {
      if (!isDomainError(e) || e.status !== 404) throw e;
    }
  }
  const canonical = screenToSearchParams({ ...screen, page: 1 });
  return {
    screen,
    sort: displaySort(screen),
    query: canonical.toString(),
    ruleTexts: search.getAll('r').filter((t) => t.trim() !== ''),
    errors,
    asOfParam: asOfParam(search) ?? '',
    results,
    unavailable,
    choices,
    pageSize: pageSizeParam(search),
    explanation,
    saved,
  };
}

/** Every security a screen query passes (for "add all results to a watchlist"); 422 when it is broken. */
export async function screenPermatickers(query: string, userId: string | null): Promise<number[]> {
  const data = await screenerPageData(new URLSearchParams(query), userId, { pageSize: 'all' });
  if (!data.results) throw unprocessable(data.errors[0]?.message ?? data.unavailable ?? 'The screen has no results.');
  return data.results.rows.map((r) => r.permaticker);
}

import { isDomainError } from '../http/errors';
import type { Explanation, ScreenPage } from './engine';
import type { Screen } from './model';
import { presetById } from './presets';
import { explainScreen, parseAsOf, runScreen, universeChoices, type AsOf } from './run.server';
import { getScreener, recordScreenerRun } from './saved.server';
import { screenFromSearchParams, screenToSearchParams, type ScreenQueryError } from './url';

// Everything /screener (and its CSV) shows for one URL: the screen it encodes, its problems, one
// page of results as of the date, an explanation, and the saved screener it came from.

export type ScreenerPageData = {
  screen: Screen;
  /** Canonical screen query (without page params). */
  query: string;
  ruleTexts: string[];
  errors: ScreenQueryError[];
  asOfParam: string;
  results: ScreenPage | null;
  unavailable: string | null;
  choices: { exchanges: string[]; sectors: string[]; industries: string[] };
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
  let asOf: AsOf = 'latest';
  try {
    asOf = parseAsOf(search.get('asof'));
  } catch (e) {
    if (!isDomainError(e)) throw e;
    errors.push({ param: 'asof', message: `As of: ${e.detail}` });
  }
  let results: ScreenPage | null = null;
  let unavailable: string | null = null;
  let choices = { exchanges: [] as string[], sectors: [] as string[], industries: [] as string[] };
  let explanation: Explanation | null = null;
  if (errors.length === 0) {
    try {
      results = await runScreen(screen, { asOf, pageSize: opts.pageSize });
      choices = await universeChoices();
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
      if (results) await recordScreenerRun(userId, s.id, results.count);
    } catch (e) {
      if (!isDomainError(e) || e.status !== 404) throw e;
    }
  }
  const canonical = screenToSearchParams({ ...screen, page: 1 });
  return {
    screen,
    query: canonical.toString(),
    ruleTexts: search.getAll('r').filter((t) => t.trim() !== ''),
    errors,
    asOfParam: search.get('asof') ?? '',
    results,
    unavailable,
    choices,
    explanation,
    saved,
  };
}

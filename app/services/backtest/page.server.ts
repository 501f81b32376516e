import { isDomainError, notFound, unprocessable } from '../http/errors';
import { csvRefusal, csvStreamResponse } from '../http/csv';
import { getCompanyProfile, resolveCompanyId } from '../company/companies.server';
import { pageError, pageNotFound } from '../http/page-errors';
import { getMetric } from '../metrics/catalogue';
import { ruleToText, type Screen } from '../screener/model';
import { getScreener } from '../screener/saved.server';
import { screenToQuery } from '../screener/url';
import {
  createBacktest,
  defaultParams,
  deleteBacktest,
  getBacktest,
  getSharedBacktest,
  listBacktests,
  type BacktestListItem,
  type BacktestView,
} from './backtests.server';
import type { BacktestParams } from './engine/params';
import { formDefaults, formToParams, type BacktestForm } from './form';
import { isResultTable, RESULT_TABLES, resultTable } from './result-csv';
import { buildResultView, parseResultQuery, type ResultView } from './result-view';

// Data of the /backtest pages (form, progress, result, shared link): thin routes call these.
// Ids are checked for shape first, so a hostile id is a plain "not found". Page loaders get
// domain errors as thrown Responses (404 page for a foreign id, 503 without market data).

const ID = /^[A-Za-z0-9-]{1,64}$/;

export function isBacktestId(id: string | null): id is string {
  return id !== null && ID.test(id);
}

export type ScreenText = { rules: string[]; ranking: string[]; universe: string[]; query: string };

export function describeScreen(screen: Screen): ScreenText {
  const u = screen.universe;
  const universe: string[] = [];
  if (u.exchanges.length) universe.push(`Exchanges: ${u.exchanges.join(', ')}`);
  if (u.sectors.length) universe.push(`Sectors: ${u.sectors.join(', ')}`);
  if (u.industries.length) universe.push(`Industries: ${u.industries.join(', ')}`);
  if (u.marketCapMin !== null) universe.push(`Market cap at least ${u.marketCapMin}`);
  if (u.marketCapMax !== null) universe.push(`Market cap at most ${u.marketCapMax}`);
  return {
    rules: screen.rules.map(ruleToText),
    ranking: screen.ranking.map(
      (p) =>
        `${getMetric(p.metric)?.label ?? p.metric}, ${p.direction === 'desc' ? 'highest first' : 'lowest first'}${p.weight === 1 ? '' : ` (weight ${p.weight})`}`,
    ),
    universe,
    query: screenToQuery({ ...screen, page: 1 }),
  };
}

/** "TICK (permaticker 12)" for a benchmark security, or the equal-weighted universe. */
async function benchmarkLabel(benchmark: BacktestParams['benchmark']): Promise<{ label: string; ticker: string }> {
  if (benchmark === 'equal_weight_universe') return { label: 'Equal-weighted universe', ticker: '' };
  const profile = await getCompanyProfile(String(benchmark)).catch(() => null);
  if (!profile) return { label: `Permaticker ${benchmark}`, ticker: String(benchmark) };
  return { label: `${profile.ticker} · ${profile.name} (permaticker ${profile.permaticker})`, ticker: profile.ticker };
}

export type BacktestHeader = Omit<BacktestView, 'result' | 'screen' | 'summary'> & { screen: ScreenText; benchmark: string };

async function header(view: BacktestView): Promise<BacktestHeader> {
  const { result: _result, screen, summary: _summary, ...rest } = view;
  return { ...rest, screen: describeScreen(screen), benchmark: (await benchmarkLabel(view.params.benchmark)).label };
}

export type BacktestFormPage = {
  screener: { id: string; name: string } & ScreenText;
  defaults: Record<string, string>;
  backtests: BacktestListItem[];
};

/** The run form of a saved screener: defaults from the data (or from a past run `fromId`), and its past backtests. */
export async function backtestFormPage(userId: string, screenerId: string, fromId: string | null): Promise<BacktestFormPage> {
  if (!isBacktestId(screenerId)) pageNotFound('Screener not found.');
  const screener = await getScreener(userId, screenerId).catch(pageError);
  let params = await defaultParams().catch(pageError);
  if (isBacktestId(fromId)) {
    // A foreign or deleted past run simply leaves the defaults.
    const past = await getBacktest(userId, fromId).catch(() => null);
    if (past) params = past.params;
  }
  const benchmark = await benchmarkLabel(params.benchmark);
  return {
    screener: { id: screener.id, name: screener.name, ...describeScreen(screener.screen) },
    defaults: formDefaults(params, benchmark.ticker),
    backtests: await listBacktests(userId, { screenerId: screener.id }),
  };
}

/** Creates the backtest a valid form asks for; an unknown benchmark ticker is a field error. */
export async function runBacktestFromForm(userId: string, screenerId: string, form: BacktestForm): Promise<BacktestView> {
  let benchmark: BacktestParams['benchmark'] = 'equal_weight_universe';
  if (form.benchmark) {
    const permaticker = await resolveCompanyId(form.benchmark);
    if (permaticker === null) {
      const message = `No company has the ticker or permaticker “${form.benchmark}”. Leave it empty for the equal-weighted universe.`;
      throw unprocessable(message, { benchmark: [message] });
    }
    benchmark = permaticker;
  }
  return createBacktest(userId, { screenerId, params: formToParams(form, benchmark) });
}

/** Deletes a backtest; where to go next: its screener's backtest page, or the saved screeners if that is gone too. */
export async function deleteBacktestFromPage(userId: string, id: string): Promise<{ name: string; backTo: string }> {
  const b = await getBacktest(userId, id);
  await deleteBacktest(userId, id);
  const screenerLeft = b.screenerId
    ? await getScreener(userId, b.screenerId).then(
        () => true,
        () => false,
      )
    : false;
  return { name: b.name, backTo: screenerLeft ? `/backtest?screener_id=${b.screenerId}` : '/screener/manage' };
}

export type BacktestPage = { backtest: BacktestHeader; result: ResultView | null; problems: string[] };

async function page(view: BacktestView, search: URLSearchParams): Promise<BacktestPage> {
  const { query, problems } = parseResultQuery(search);
  const result = view.result ? await buildResultView(view.result, query, problems) : null;
  return { backtest: await header(view), result, problems: result ? result.problems : problems };
}

export async function backtestPage(userId: string, id: string, search: URLSearchParams): Promise<BacktestPage> {
  if (!isBacktestId(id)) pageNotFound('Backtest not found.');
  return page(await getBacktest(userId, id, { withResult: true }).catch(pageError), search);
}

export async function sharedBacktestPage(token: string, search: URLSearchParams): Promise<BacktestPage> {
  const p = await page(await getSharedBacktest(token).catch(pageError), search);
  // The reader sees the numbers, not the owner's screener id or share controls.
  return { ...p, backtest: { ...p.backtest, screenerId: null, shareToken: null } };
}

/** The CSV download of one table of a finished backtest, found by its id (owner) or share token. */
export async function backtestCsv(userId: string, search: URLSearchParams): Promise<Response> {
  const table = search.get('table') ?? '';
  if (!isResultTable(table)) return csvRefusal(400, `Unknown table “${table.slice(0, 40)}”: ask for one of ${RESULT_TABLES.join(', ')}.`);
  const id = search.get('backtest_id');
  const token = search.get('token');
  if ((id === null) === (token === null))
    return csvRefusal(400, 'Name the backtest with backtest_id (yours) or token (a shared link), one of them.');
  let view: BacktestView;
  try {
    if (id !== null) {
      if (!isBacktestId(id)) throw notFound('Backtest not found.');
      view = await getBacktest(userId, id, { withResult: true });
    } else view = await getSharedBacktest(token ?? '');
  } catch (e) {
    if (isDomainError(e)) return csvRefusal(e.status, e.detail);
    throw e;
  }
  if (!view.result) return csvRefusal(409, `The backtest has not finished (${view.status}); its CSV is ready when it has.`);
  return csvStreamResponse(resultTable(view.result, table), `backtest-${view.name.slice(0, 60)}-${table}.csv`);
}

import type { BacktestStatistics, Holding, MonthlyReturnRow, Trade } from './engine/types';
import type { LoadedResult } from './stored-rows';

// What a result page shows of a stored result, for one state of its address (log scale, the
// opened rebalance, the page of each long list). No I/O of its own: the owner's page and the
// shared page build the same view; of the long lists it reads only the opened rebalance's
// holdings and one page of trades (of a paged result, only the stored parts holding those), and
// only a page of each list travels to the browser.

export const RESULT_PAGE_SIZE = 100;

export type ResultQuery = {
  scale: 'linear' | 'log';
  /** 1-based rebalance whose holdings are open, or null. */
  rebalance: number | null;
  rebalancesPage: number;
  tradesPage: number;
};

export const DEFAULT_RESULT_QUERY: ResultQuery = { scale: 'linear', rebalance: null, rebalancesPage: 1, tradesPage: 1 };

const PARAM = { scale: 'scale', rebalance: 'rebalance', rebalancesPage: 'rebalances_page', tradesPage: 'trades_page' } as const;
/** Larger numbers are not page numbers but typing accidents; in range they clamp to the last page. */
const MAX_PAGE_PARAM = 1_000_000_000;

function positiveInt(raw: string | null, name: string, problems: string[]): number | null {
  if (raw === null || raw.trim() === '') return null;
  const t = raw.trim();
  if (!/^\d{1,10}$/.test(t) || Number(t) < 1 || Number(t) > MAX_PAGE_PARAM) {
    problems.push(`“${name}” must be a whole number from 1 (got “${t.slice(0, 20)}”).`);
    return null;
  }
  return Number(t);
}

/** The view state in a URL; unusable values are reported and replaced by the defaults. */
export function parseResultQuery(search: URLSearchParams): { query: ResultQuery; problems: string[] } {
  const problems: string[] = [];
  const rawScale = search.get(PARAM.scale);
  let scale: ResultQuery['scale'] = 'linear';
  if (rawScale === 'log' || rawScale === 'linear') scale = rawScale;
  else if (rawScale !== null && rawScale !== '') problems.push(`“scale” is linear or log (got “${rawScale.slice(0, 20)}”).`);
  return {
    query: {
      scale,
      rebalance: positiveInt(search.get(PARAM.rebalance), PARAM.rebalance, problems),
      rebalancesPage: positiveInt(search.get(PARAM.rebalancesPage), PARAM.rebalancesPage, problems) ?? 1,
      tradesPage: positiveInt(search.get(PARAM.tradesPage), PARAM.tradesPage, problems) ?? 1,
    },
    problems,
  };
}

/** `base` (a path with or without its own query) plus the view state, defaults left out. */
export function resultHref(base: string, query: ResultQuery, changes: Partial<ResultQuery> = {}, hash = ''): string {
  const q = { ...query, ...changes };
  const params: [string, string][] = [];
  if (q.scale !== 'linear') params.push([PARAM.scale, q.scale]);
  if (q.rebalance !== null) params.push([PARAM.rebalance, String(q.rebalance)]);
  if (q.rebalancesPage !== 1) params.push([PARAM.rebalancesPage, String(q.rebalancesPage)]);
  if (q.tradesPage !== 1) params.push([PARAM.tradesPage, String(q.tradesPage)]);
  const extra = new URLSearchParams(params).toString();
  const joined = extra ? `${base}${base.includes('?') ? '&' : '?'}${extra}` : base;
  return hash ? `${joined}#${hash}` : joined;
}

export type Paged<T> = { page: number; pageCount: number; total: number; first: number; rows: T[] };

function pageOf<T>(items: readonly T[], page: number): Paged<T> {
  const pageCount = Math.max(1, Math.ceil(items.length / RESULT_PAGE_SIZE));
  const p = Math.min(page, pageCount);
  const from = (p - 1) * RESULT_PAGE_SIZE;
  return { page: p, pageCount, total: items.length, first: from + 1, rows: items.slice(from, from + RESULT_PAGE_SIZE) };
}

export type RebalanceRow = {
  n: number;
  signalDate: string;
  tradeDate: string;
  universeCount: number;
  passCount: number;
  holdingCount: number;
  valueBefore: number;
  tradedValue: number;
  cost: number;
};

export type OpenRebalance = Omit<RebalanceRow, 'holdingCount'> & { metrics: string[]; holdings: Holding[] };

export type CurvePoint = { date: string; equity: number; benchmark: number; drawdown: number; survivors: number | null };

export type SurvivorsView = {
  securities: number;
  delistedExcluded: number;
  full: Pick<BacktestStatistics, 'totalReturn' | 'cagr' | 'maxDrawdown' | 'sharpe' | 'annualVolatility'>;
  survivors: Pick<BacktestStatistics, 'totalReturn' | 'cagr' | 'maxDrawdown' | 'sharpe' | 'annualVolatility'>;
  /** Survivors-only total return minus the full run's, in percentage points (positive: flattered). */
  totalReturnGapPp: number;
  cagrGapPp: number;
};

export type ResultView = {
  statistics: Omit<BacktestStatistics, 'monthlyReturns'>;
  monthly: MonthlyReturnRow[];
  curve: CurvePoint[];
  rebalances: Paged<RebalanceRow>;
  openRebalance: OpenRebalance | null;
  trades: Paged<Trade>;
  survivors: SurvivorsView | null;
  delistedHoldings: number;
  /** The view state actually shown (pages clamped to the last page). */
  query: ResultQuery;
  problems: string[];
};

const pick = (s: BacktestStatistics) => ({
  totalReturn: s.totalReturn,
  cagr: s.cagr,
  maxDrawdown: s.maxDrawdown,
  sharpe: s.sharpe,
  annualVolatility: s.annualVolatility,
});
const pp = (a: number, b: number) => Number(((a - b) * 100).toPrecision(12));

/** The metrics the holdings carry, in the order they first appear (the screen's order). */
export function holdingMetrics(holdings: readonly Holding[]): string[] {
  const seen = new Set<string>();
  for (const h of holdings) for (const k of Object.keys(h.values)) seen.add(k);
  return [...seen];
}

export async function buildResultView(result: LoadedResult, query: ResultQuery, problems: string[] = []): Promise<ResultView> {
  const r = result.light;
  const { monthlyReturns, ...statistics } = r.statistics;
  const out = [...problems];
  const rows: RebalanceRow[] = r.rebalances.map((b, i) => ({
    n: i + 1,
    signalDate: b.signalDate,
    tradeDate: b.tradeDate,
    universeCount: b.universeCount,
    passCount: b.passCount,
    holdingCount: result.rows.holdingCounts[i],
    valueBefore: b.valueBefore,
    tradedValue: b.tradedValue,
    cost: b.cost,
  }));
  let openRebalance: OpenRebalance | null = null;
  let rebalance = query.rebalance;
  if (rebalance !== null) {
    if (rebalance <= r.rebalances.length) {
      const holdings = await result.rows.holdingsOf(rebalance - 1);
      const { holdingCount: _count, ...row } = rows[rebalance - 1];
      openRebalance = { ...row, metrics: holdingMetrics(holdings), holdings };
    } else {
      out.push(`There is no rebalance ${rebalance}: this backtest has ${r.rebalances.length}.`);
      rebalance = null;
    }
  }
  const rebalances = pageOf(rows, query.rebalancesPage);
  const tradeTotal = result.rows.tradeCount;
  const tradePages = Math.max(1, Math.ceil(tradeTotal / RESULT_PAGE_SIZE));
  const tradesPage = Math.min(query.tradesPage, tradePages);
  const tradesFrom = (tradesPage - 1) * RESULT_PAGE_SIZE;
  // Only the page's rows are read: a daily backtest's log can hold millions of trades.
  const trades: Paged<Trade> = {
    page: tradesPage,
    pageCount: tradePages,
    total: tradeTotal,
    first: tradesFrom + 1,
    rows: await result.rows.tradeSlice(tradesFrom, tradesFrom + RESULT_PAGE_SIZE),
  };
  const survivorsEquity = r.survivors?.equity;
  const curve: CurvePoint[] = r.dates.map((date, i) => ({
    date,
    equity: r.equity[i],
    benchmark: r.benchmark[i],
    drawdown: r.drawdown[i],
    survivors: survivorsEquity && survivorsEquity.length === r.dates.length ? survivorsEquity[i] : null,
  }));
  const survivors: SurvivorsView | null = r.survivors
    ? {
        securities: r.survivors.securities,
        delistedExcluded: r.survivors.delistedExcluded,
        full: pick(r.statistics),
        survivors: pick(r.survivors.statistics),
        totalReturnGapPp: pp(r.survivors.statistics.totalReturn, r.statistics.totalReturn),
        cagrGapPp: pp(r.survivors.statistics.cagr, r.statistics.cagr),
      }
    : null;
  return {
    statistics,
    monthly: monthlyReturns,
    curve,
    rebalances,
    openRebalance,
    trades,
    survivors,
    delistedHoldings: r.delistedHoldings,
    query: { ...query, rebalance, rebalancesPage: rebalances.page, tradesPage: trades.page },
    problems: out,
  };
}

import { PAGE_SIZE, displayColumns, displaySort, type Screen } from '../model';
import { orderMore, rankRows, type Ranked } from './ranking';
import { compileRule, type CompiledRule } from './rules';
import { sortRows } from './sort';
import type { PreparedUniverse, ResultRow, ScreenPage } from './types';
import { universeRows } from './universe';

// Evaluating a screen on one snapshot: universe → rules (each over the survivors of the last) →
// ranking and limit → display sort → page. Backtests use `matchScreen` and read `ranked` (best
// first); pages use `screenPage`.

export type CompiledScreen = { screen: Screen; rules: CompiledRule[]; columns: string[] };

/** Parses every rule once; reuse the result for every date of a backtest. */
export function compileScreen(screen: Screen): CompiledScreen {
  return { screen, rules: screen.rules.map(compileRule), columns: displayColumns(screen) };
}

export type ScreenMatches = {
  universe: Int32Array;
  /** Passing rows, best first by the ranking (by ticker without one), cut to the limit. */
  ranked: Int32Array;
  /** Passing rows in the screen's display sort. */
  sorted: Int32Array;
  score: Float64Array | null;
  rank: Float64Array | null;
};

/** The screen's universe and the rows passing every rule, in universe order. */
function passingRows(compiled: CompiledScreen, p: PreparedUniverse): { universe: Int32Array; rows: Int32Array } {
  const universe = universeRows(compiled.screen.universe, p);
  let rows = universe;
  // Rank rules rank within the whole universe, so all rules bind before any filtering.
  const bound = compiled.rules.map((r) => r.bind(p, universe));
  // Each rule keeps its survivors in place, in one buffer (the universe itself is kept).
  const kept = bound.length > 0 ? new Int32Array(rows.length) : rows;
  for (const b of bound) rows = kept.subarray(0, b.keep(rows, kept));
  return { universe, rows };
}

export function matchScreen(compiled: CompiledScreen, p: PreparedUniverse): ScreenMatches {
  const { screen } = compiled;
  const { universe, rows } = passingRows(compiled, p);
  let ranked: Int32Array;
  let score: Float64Array | null = null;
  let rank: Float64Array | null = null;
  if (screen.ranking.length > 0) {
    const r = rankRows(screen.ranking, p, rows);
    ranked = r.order;
    score = r.score;
    rank = r.rank;
  } else {
    ranked = sortRows(rows, p, { key: 'ticker', dir: 'asc' }, null);
  }
  if (screen.limit !== null && ranked.length > screen.limit) ranked = ranked.slice(0, screen.limit);
  const sort = displaySort(screen);
  const sorted = sort.key === 'rank' && sort.dir === 'asc' && rank ? ranked : sortRows(ranked, p, sort, rank);
  return { universe, ranked, sorted, score, rank };
}

/**
 * What a backtest reads of a screen on one date: the universe and the passing rows best first
 * (cut to the screen's limit), ordered only as far as they are read — `at(i)` is the i-th best.
 * The same rows, order, ranks and scores as `matchScreen`, without sorting hundreds of rows of
 * which a rebalance takes its top N.
 */
export type RankedMatches = {
  universe: Int32Array;
  /** Passing rows (after the limit). */
  count: number;
  at(i: number): number;
  score: Float64Array | null;
  rank: Float64Array | null;
};

export function matchRanked(compiled: CompiledScreen, p: PreparedUniverse, firstNeeded: number): RankedMatches {
  const { screen } = compiled;
  const { universe, rows } = passingRows(compiled, p);
  const count = screen.limit !== null ? Math.min(rows.length, screen.limit) : rows.length;
  if (screen.ranking.length === 0) {
    const ranked = sortRows(rows, p, { key: 'ticker', dir: 'asc' }, null);
    return { universe, count, at: (i) => ranked[i], score: null, rank: null };
  }
  const r: Ranked = rankRows(screen.ranking, p, rows, Math.min(count, firstNeeded));
  return {
    universe,
    count,
    at(i) {
      if (i >= r.ordered) orderMore(r, p, Math.min(count, Math.max(i + 1, 2 * r.ordered)));
      return r.order[i];
    },
    score: r.score,
    rank: r.rank,
  };
}

function codedText(col: PreparedUniverse['sector'], r: number): string | null {
  return col.codes[r] >= 0 ? col.dictionary[col.codes[r]] : null;
}

export function resultRow(p: PreparedUniverse, r: number, columns: readonly string[], m: Pick<ScreenMatches, 'rank' | 'score'>): ResultRow {
  const values: Record<string, number | null> = {};
  for (const c of columns) {
    const v = p.snapshot.values[c]?.[r];
    values[c] = v === undefined || Number.isNaN(v) ? null : v;
  }
  return {
    permaticker: p.snapshot.permatickers[r],
    ticker: p.ticker[r],
    name: p.name[r],
    exchange: codedText(p.exchange, r),
    sector: codedText(p.sector, r),
    industry: codedText(p.industry, r),
    rank: m.rank && !Number.isNaN(m.rank[r]) ? m.rank[r] : null,
    score: m.score ? m.score[r] : null,
    values,
  };
}

/** One page of results (page size PAGE_SIZE unless given; `all` for CSV exports). */
export function screenPage(compiled: CompiledScreen, p: PreparedUniverse, opts: { pageSize?: number | 'all' } = {}): ScreenPage {
  const m = matchScreen(compiled, p);
  const count = m.sorted.length;
  const pageSize = opts.pageSize === 'all' ? Math.max(count, 1) : (opts.pageSize ?? PAGE_SIZE);
  const pageCount = Math.max(1, Math.ceil(count / pageSize));
  const page = Math.min(compiled.screen.page, pageCount);
  const start = (page - 1) * pageSize;
  const rows: ResultRow[] = [];
  for (let i = start; i < Math.min(count, start + pageSize); i++) rows.push(resultRow(p, m.sorted[i], compiled.columns, m));
  return { asOf: p.snapshot.date, universeCount: m.universe.length, count, page, pageSize, pageCount, columns: compiled.columns, rows };
}

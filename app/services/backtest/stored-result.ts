import { gunzipSync, gzipSync, strFromU8, strToU8 } from 'fflate';
import type { BacktestResult, BacktestStatistics } from './engine';

// A stored result: the engine's result plus the survivors-only comparison, as gzipped JSON in
// base64 (the same text column on SQLite and PostgreSQL). JSON writes doubles in their shortest
// round-tripping form, so the numbers read back are bit-identical to the ones computed.

export type SurvivorsComparison = {
  /** Companies in the survivors-only run (still listed at the end). */
  securities: number;
  statistics: BacktestStatistics;
  equity: number[];
  delistedExcluded: number;
};

export type StoredResult = Omit<BacktestResult, 'days' | 'equity' | 'benchmark' | 'drawdown'> & {
  equity: number[];
  benchmark: number[];
  drawdown: number[];
  survivors: SurvivorsComparison | null;
};

export type ResultSummary = {
  totalReturn: number;
  cagr: number;
  maxDrawdown: number;
  sharpe: number | null;
  benchmarkTotalReturn: number;
  survivorsTotalReturn: number | null;
  startDate: string;
  endDate: string;
};

export function toStored(result: BacktestResult, survivors: SurvivorsComparison | null): StoredResult {
  const { days: _days, equity, benchmark, drawdown, ...rest } = result;
  return { ...rest, equity: Array.from(equity), benchmark: Array.from(benchmark), drawdown: Array.from(drawdown), survivors };
}

export function summaryOf(r: StoredResult): ResultSummary {
  const s = r.statistics;
  return {
    totalReturn: s.totalReturn,
    cagr: s.cagr,
    maxDrawdown: s.maxDrawdown,
    sharpe: s.sharpe,
    benchmarkTotalReturn: s.benchmarkTotalReturn,
    survivorsTotalReturn: r.survivors?.statistics.totalReturn ?? null,
    startDate: s.startDate,
    endDate: s.endDate,
  };
}

// NaN and ±Infinity are not JSON: they are written as {"$num": "NaN"} and read back as numbers
// (an object, so a ticker spelled "NaN" stays a string).
const isSpecial = (v: unknown): v is { $num: string } => typeof v === 'object' && v !== null && '$num' in v && Object.keys(v).length === 1;

export function encodeResult(r: StoredResult): string {
  const json = JSON.stringify(r, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? { $num: String(v) } : v));
  return Buffer.from(gzipSync(strToU8(json), { level: 6, mtime: 0 })).toString('base64');
}

export function decodeResult(text: string): StoredResult {
  const json = strFromU8(gunzipSync(Buffer.from(text, 'base64')));
  return JSON.parse(json, (_k, v: unknown) => (isSpecial(v) ? Number(v.$num) : v)) as StoredResult;
}

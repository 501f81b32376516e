import { fromEpochDay, toEpochDay, weekday } from '../../dates';
import type { MetricSnapshot } from '../../metrics/engine/types';
import type { SecurityMeta } from '../../screener/engine/types';
import { ScreenSchema, ruleFromText, type ScreenInput } from '../../screener/model';
import { BacktestParamsSchema, type BacktestParamsInput } from './params';
import type { BacktestInputs, PriceSeries } from './types';

// Tiny hand-written universes for the engine's tests. Not used by the app.

/** `n` consecutive weekdays from `from` (inclusive when it is a weekday). */
export function weekdays(from: string, n: number): Int32Array {
  const out = new Int32Array(n);
  let d = toEpochDay(from);
  for (let k = 0; k < n; d++) if (weekday(fromEpochDay(d)) % 6 !== 0) out[k++] = d;
  return out;
}

export type TestSecurity = {
  permaticker: number;
  ticker: string;
  /** Total-return index per day of `days`; null = no bar that day (not listed yet / any more). */
  tri: (number | null)[];
  close?: (number | null)[];
  delisted?: boolean;
  /** Metric values per day (null = n/a), for the snapshot of that day. */
  metrics?: Record<string, (number | null)[]>;
};

export function panelOf(days: Int32Array, securities: TestSecurity[]) {
  const series: PriceSeries[] = securities.map((s) => {
    const idx = s.tri.flatMap((v, i) => (v === null ? [] : [i]));
    return {
      permaticker: s.permaticker,
      days: Int32Array.from(idx, (i) => days[i]),
      tri: Float64Array.from(idx, (i) => s.tri[i] as number),
      close: Float64Array.from(idx, (i) => (s.close?.[i] ?? s.tri[i]) as number),
      delisted: s.delisted ?? false,
    };
  });
  const meta: SecurityMeta[] = securities.map((s) => {
    const last = s.tri.findLastIndex((v) => v !== null);
    return {
      permaticker: s.permaticker,
      ticker: s.ticker,
      name: `${s.ticker} Corp`,
      exchange: 'NYSE',
      sector: 'Technology',
      industry: 'Software',
      isDelisted: s.delisted ?? false,
      lastPriceDate: s.delisted ? fromEpochDay(days[last]) : null,
    };
  });
  const sorted = [...securities].sort((a, b) => a.permaticker - b.permaticker);
  /** Rows: securities with a bar that day; metrics as given for that day. */
  const snapshotAt = (date: string, day: number): MetricSnapshot => {
    const i = days.indexOf(day);
    const listed = sorted.filter((s) => s.tri[i] !== null && s.tri[i] !== undefined);
    const ids = new Set(['price', ...listed.flatMap((s) => Object.keys(s.metrics ?? {}))]);
    const values: Record<string, Float64Array> = {};
    for (const id of ids)
      values[id] = Float64Array.from(listed, (s) => (id === 'price' ? (s.close?.[i] ?? s.tri[i]) : s.metrics?.[id]?.[i]) ?? Number.NaN);
    return { date, day, permatickers: Int32Array.from(listed, (s) => s.permaticker), values };
  };
  return { prices: { series }, securities: meta, snapshotAt };
}

export function paramsOf(days: Int32Array, rest: Omit<BacktestParamsInput, 'start' | 'end'> = {}) {
  return BacktestParamsSchema.parse({
    start: fromEpochDay(days[0]),
    end: fromEpochDay(days[days.length - 1]),
    initialCapital: 1000,
    ...rest,
  });
}

export function screenOf(rules: string[], rest: Omit<ScreenInput, 'rules'> = {}) {
  return ScreenSchema.parse({ ...rest, rules: rules.map(ruleFromText) });
}

export function inputsOf(
  days: Int32Array,
  securities: TestSecurity[],
  screen: ReturnType<typeof screenOf>,
  params: Omit<BacktestParamsInput, 'start' | 'end'> = {},
): BacktestInputs {
  return { ...panelOf(days, securities), screen, params: paramsOf(days, params) };
}

import type { MetricSnapshot } from '../../metrics/engine/types';
import { toEpochDay } from '../../dates';
import { ScreenSchema, ruleFromText, type ScreenInput } from '../model';
import { compileScreen } from './run';
import type { SecurityMeta } from './types';
import { prepareUniverse } from './universe';

// Tiny hand-written universes for the engine's tests: each security with a few metric values
// (null = n/a). Not used by the app.

export type Row = Partial<Omit<SecurityMeta, 'permaticker' | 'ticker'>> & {
  permaticker: number;
  ticker: string;
  values: Record<string, number | null>;
};

export function snapshotOf(rows: Row[], date = '2024-06-28'): { snapshot: MetricSnapshot; securities: SecurityMeta[] } {
  const sorted = [...rows].sort((a, b) => a.permaticker - b.permaticker);
  const ids = new Set(sorted.flatMap((r) => Object.keys(r.values)));
  const values: Record<string, Float64Array> = {};
  for (const id of ids) values[id] = Float64Array.from(sorted, (r) => r.values[id] ?? NaN);
  const snapshot: MetricSnapshot = { date, day: toEpochDay(date), permatickers: Int32Array.from(sorted, (r) => r.permaticker), values };
  const securities = sorted.map((r) => ({
    permaticker: r.permaticker,
    ticker: r.ticker,
    name: r.name ?? `${r.ticker} Corp`,
    exchange: r.exchange === undefined ? 'NYSE' : r.exchange,
    sector: r.sector === undefined ? 'Technology' : r.sector,
    industry: r.industry === undefined ? 'Software' : r.industry,
    isDelisted: r.isDelisted ?? false,
    lastPriceDate: r.lastPriceDate ?? null,
  }));
  return { snapshot, securities };
}

/** Builds a screen from rule texts and other fields. */
export function screenOf(rules: string[], rest: Omit<ScreenInput, 'rules'> = {}) {
  return ScreenSchema.parse({ ...rest, rules: rules.map(ruleFromText) });
}

export function setup(rows: Row[], date?: string) {
  const { snapshot, securities } = snapshotOf(rows, date);
  const prepared = prepareUniverse(snapshot, securities);
  return {
    snapshot,
    securities,
    prepared,
    compile: (rules: string[], rest: Omit<ScreenInput, 'rules'> = {}) => compileScreen(screenOf(rules, rest)),
  };
}

import { toEpochDay } from '../../dates';
import { buildFactColumns, type FactRow } from '../engine/facts';
import type { SecurityInput } from '../engine/types';
import { tradingDays } from './synthetic-universe';

// Hand-made securities for engine tests: weekday prices from a list or a function of the index.

export type FixtureOptions = {
  permaticker?: number;
  start: string;
  /** Number of weekdays (when `close` is a function) or the closes themselves. */
  days?: number;
  close: number[] | ((k: number) => number);
  closeUnadj?: (k: number, close: number) => number;
  tri?: (k: number, close: number) => number;
  volume?: (k: number) => number;
  facts?: FactRow[];
  dividends?: { exDate: string; amount: number }[];
  delisted?: boolean;
};

export function fixtureSecurity(o: FixtureOptions): SecurityInput {
  const start = toEpochDay(o.start);
  const n = Array.isArray(o.close) ? o.close.length : (o.days ?? 300);
  const days = tradingDays(start, start + n * 2 + 10).slice(0, n);
  const close = Float64Array.from(days, (_, k) => (Array.isArray(o.close) ? o.close[k] : (o.close as (k: number) => number)(k)));
  return {
    permaticker: o.permaticker ?? 1,
    dates: Int32Array.from(days),
    close,
    closeUnadj: Float64Array.from(close, (c, k) => (o.closeUnadj ? o.closeUnadj(k, c) : c)),
    tri: Float64Array.from(close, (c, k) => (o.tri ? o.tri(k, c) : c)),
    volume: Float64Array.from(days, (_, k) => (o.volume ? o.volume(k) : 1000)),
    dividends: {
      exDate: Int32Array.from((o.dividends ?? []).map((d) => toEpochDay(d.exDate))),
      amount: Float64Array.from((o.dividends ?? []).map((d) => d.amount)),
    },
    facts: buildFactColumns(o.facts ?? []),
    delisted: o.delisted ?? false,
  };
}

/** A quarterly flow fact (10-Q) of a calendar-year company. */
export function quarter(
  concept: string,
  year: number,
  q: 1 | 2 | 3 | 4,
  value: number,
  filed: string,
  accession = `acc-${year}-q${q}`,
): FactRow {
  const ends = ['03-31', '06-30', '09-30', '12-31'];
  const starts = ['01-01', '04-01', '07-01', '10-01'];
  return {
    concept,
    value,
    periodStart: `${year}-${starts[q - 1]}`,
    periodEnd: `${year}-${ends[q - 1]}`,
    fiscalPeriod: `Q${q}`,
    filed,
    accession,
  };
}

/** A fiscal-year flow fact (10-K) of a calendar-year company. */
export function fiscalYear(concept: string, year: number, value: number, filed: string, accession = `acc-${year}-fy`): FactRow {
  return {
    concept,
    value,
    periodStart: `${year}-01-01`,
    periodEnd: `${year}-12-31`,
    fiscalPeriod: 'FY',
    filed,
    accession,
  };
}

/** A balance-sheet (instant) fact. */
export function instant(concept: string, periodEnd: string, value: number, filed: string, accession = `acc-${periodEnd}`): FactRow {
  return {
    concept,
    value,
    periodStart: null,
    periodEnd,
    fiscalPeriod: null,
    filed,
    accession,
  };
}

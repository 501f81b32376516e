import type { IsoDate } from '../../dates';
import type { Security } from '../../market/store/security';
import type { MetricSnapshot } from '../../metrics/engine/types';

// Inputs and outputs of the screener engine. The engine is pure: the snapshot and the securities'
// descriptive fields come in, rows and explanations come out. Backtests call it once per
// rebalance date with that date's snapshot (so every value is point in time).

/** The fields of a security that universes and group rules read. */
export type SecurityMeta = Pick<
  Security,
  'permaticker' | 'ticker' | 'name' | 'exchange' | 'sector' | 'industry' | 'isDelisted' | 'lastPriceDate'
>;

/** A text column stored as codes into a dictionary (-1 = none), so group rules compare integers. */
export type CodedColumn = { codes: Int32Array; dictionary: string[] };

/** A snapshot joined with the securities' fields, row-aligned. Build once per snapshot. */
export type PreparedUniverse = {
  snapshot: MetricSnapshot;
  size: number;
  /** Row has a known security (rows without metadata are never in a universe). */
  known: Uint8Array;
  ticker: string[];
  name: string[];
  exchange: CodedColumn;
  sector: CodedColumn;
  industry: CodedColumn;
  /** 1 when the security was delisted on or before the snapshot date. */
  delistedAsOf: Uint8Array;
};

export type ResultRow = Pick<Security, 'permaticker' | 'ticker' | 'name' | 'exchange' | 'sector' | 'industry'> & {
  /** 1 = best by the ranking; null without a ranking. */
  rank: number | null;
  /** Composite score in [0, 1] (weighted percentile ranks); null without a ranking. */
  score: number | null;
  values: Record<string, number | null>;
};

export type ScreenPage = {
  asOf: IsoDate;
  /** Rows in the universe (before rules). */
  universeCount: number;
  /** Rows passing every rule (after the limit). */
  count: number;
  page: number;
  pageSize: number;
  pageCount: number;
  columns: string[];
  rows: ResultRow[];
};

export type CheckResult = {
  label: string;
  passes: boolean;
  /** What the security has, in words or numbers (null = n/a). */
  values: { label: string; metric: string | null; value: number | string | null }[];
  detail: string;
};

export type Explanation = {
  asOf: IsoDate;
  permaticker: number;
  ticker: string | null;
  name: string | null;
  /** The security has a row in the snapshot (was listed with a price on the date). */
  inSnapshot: boolean;
  universe: CheckResult[];
  rules: CheckResult[];
  passes: boolean;
  rank: number | null;
};

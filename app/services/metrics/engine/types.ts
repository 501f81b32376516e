import type { IsoDate } from '../../dates';
import type { SplitEvent } from './share-basis';

// Columnar inputs and outputs of the point-in-time engine. Days are epoch days (days since
// 1970-01-01, see dates.ts) so the hot loops compare integers, never strings or Date objects.
// Missing numbers are NaN inside the engine; callers read them through snapshot.ts as null.

/** Facts of one security, sorted by `available` ascending (ties in filing order). */
export type FactColumns = {
  /** Index into CONCEPT_IDS. */
  concept: Int8Array;
  value: Float64Array;
  periodEnd: Int32Array;
  /** 0 = instant (balance sheet), 1 = fiscal quarter, 2 = fiscal year, 3 = nine months to date (per-share values). */
  periodKind: Int8Array;
  /** The day the fact was filed (known from filed + 1). */
  filed: Int32Array;
  /**
   * The fact is usable on days strictly after this one. Equal to `filed` for point-in-time
   * evaluation; series in "latest restated" mode move a restated value back to the day its
   * period was first filed.
   */
  available: Int32Array;
  /**
   * Each fact's accession (the filing it came from, for provenance); null where the loader did not
   * read them: no metric's value depends on them, so a snapshot build or a backtest goes without.
   */
  accession: (string | null)[] | null;
};

export type DividendColumns = {
  /** Ex-dates ascending. */
  exDate: Int32Array;
  /** Cash per share as paid (not split-adjusted). */
  amount: Float64Array;
};

export type SecurityInput = {
  permaticker: number;
  /** Trading days ascending. */
  dates: Int32Array;
  /** Split-adjusted close (adjusted as of the latest split in the store). */
  close: Float64Array;
  /** Close as traded; NaN when unknown (then no splits are assumed). */
  closeUnadj: Float64Array;
  volume: Float64Array;
  /** Total-return index; NaN when unknown (then close is used). */
  tri: Float64Array;
  dividends: DividendColumns;
  facts: FactColumns;
  /** The store's split actions (epoch day of the ex-date, ratio); without any, splits are inferred from the filings. */
  splits?: SplitEvent[];
  /** Delisted securities are not listed after their last price day. */
  delisted: boolean;
  /** Trading days before `dates[0]` that were not loaded (a windowed load); 0 by default. */
  barsBefore?: number;
};

/** Daily market returns for beta, indexed by epoch day − day0; NaN on days without trading. */
export type MarketReturns = { day0: number; ret: Float64Array };

export type UniverseInput = {
  securities: SecurityInput[];
  market: MarketReturns | null;
  /**
   * The exchange's trading days, ascending: lookbacks count these. Without it, the days on which
   * any of `securities` has a bar (right when they are the whole market).
   */
  calendar?: Int32Array;
};

/** Every catalogue metric for every security listed on one day. */
export type MetricSnapshot = {
  date: IsoDate;
  day: number;
  /** Ascending permatickers; row i of every column belongs to permatickers[i]. */
  permatickers: Int32Array;
  /** metric id → one value per row; NaN inside means "n/a" (read through snapshot.ts helpers). */
  values: Record<string, Float64Array>;
};

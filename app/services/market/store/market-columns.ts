import type { FactRecord, PriceRecord } from './records';
import { concatColumns, epochDayOf, type ColumnSpec, type TypedColumn } from './typed-columns';

// The largest tables' rows as typed columns, checked as the store would check them: the writer
// builds them from records, and a thread that generates rows (the demo's) builds them itself and
// hands the arrays over.

const PRICE_DOUBLES = ['open', 'high', 'low', 'close', 'volume', 'closeUnadj', 'tri'] as const;
const PRICE_DOUBLE_COLUMNS: Record<(typeof PRICE_DOUBLES)[number], string> = {
  open: 'open',
  high: 'high',
  low: 'low',
  close: 'close',
  volume: 'volume',
  closeUnadj: 'close_unadj',
  tri: 'tri',
};

export type PriceColumns = {
  /** The prices table's columns in DDL order (schema.ts). */
  table: TypedColumn[];
  /** First and last day of each permaticker's rows. */
  ranges: { perm: number[]; first: number[]; last: number[] };
};

/**
 * Price rows as typed columns (one pass, no value objects), checked as the appender would
 * (`prices row N: close must be a finite number`), and checked to repeat no (permaticker, date):
 * the prices table has no key, so this is what keeps a batch's rows unique.
 */
export function priceColumns(rows: readonly PriceRecord[]): PriceColumns {
  const n = rows.length;
  const perm = new Int32Array(n);
  const day = new Int32Array(n);
  const doubles = PRICE_DOUBLES.map(() => new Float64Array(n));
  const ranges = new Map<number, { first: number; last: number }>();
  let ordered = true;
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    const p = r.permaticker;
    if (typeof p !== 'number' || !Number.isInteger(p))
      throw new Error(`prices row ${i + 1}: permaticker must be an integer, got ${String(p)}`);
    let d: number;
    try {
      d = epochDayOf(r.date);
    } catch (e) {
      throw new Error(`prices row ${i + 1}: ${(e as Error).message}`);
    }
    perm[i] = p;
    day[i] = d;
    for (let c = 0; c < PRICE_DOUBLES.length; c++) {
      const key = PRICE_DOUBLES[c];
      const v = r[key] as unknown;
      if (v === null || (v === undefined && key !== 'close')) doubles[c][i] = Number.NaN;
      else if (typeof v !== 'number' || !Number.isFinite(v))
        throw new Error(`prices row ${i + 1}: ${PRICE_DOUBLE_COLUMNS[key]} must be a finite number, got ${String(v)}`);
      else doubles[c][i] = v;
    }
    if (Number.isNaN(doubles[3][i])) throw new Error(`prices row ${i + 1}: close must be a finite number, got null`);
    const range = ranges.get(p);
    if (!range) ranges.set(p, { first: d, last: d });
    else {
      if (d < range.first) range.first = d;
      if (d > range.last) range.last = d;
    }
    // Rows ordered by (permaticker, date) strictly are unique; anything else is checked below.
    if (i > 0 && !(perm[i - 1] < p || (perm[i - 1] === p && day[i - 1] < d))) ordered = false;
  }
  if (!ordered) {
    const seen = new Set<number>();
    for (let i = 0; i < n; i++) {
      // A permaticker and an epoch day fit one exact double key (days < 2^20 in magnitude).
      const key = perm[i] * 2 ** 21 + (day[i] + 2 ** 20);
      if (seen.has(key)) throw new Error(`prices row ${i + 1}: a second price of permaticker ${perm[i]} on ${rows[i].date}.`);
      seen.add(key);
    }
  }
  const [open, high, low, close, volume, closeUnadj, tri] = doubles;
  const keys = [...ranges.keys()];
  return {
    table: [
      { kind: 'integer', values: perm },
      { kind: 'date', values: day },
      { kind: 'double', values: open },
      { kind: 'double', values: high },
      { kind: 'double', values: low },
      { kind: 'double', values: close },
      { kind: 'double', values: volume },
      { kind: 'double', values: closeUnadj },
      { kind: 'double', values: tri },
    ],
    ranges: { perm: keys, first: keys.map((k) => ranges.get(k)!.first), last: keys.map((k) => ranges.get(k)!.last) },
  };
}

/** Price columns of different securities, one after another (each part's rows stay checked). */
export function concatPriceColumns(parts: readonly PriceColumns[]): PriceColumns {
  if (parts.length === 1) return parts[0];
  const seen = new Set<number>();
  for (const p of parts)
    for (const perm of p.ranges.perm) {
      if (seen.has(perm)) throw new Error(`concatPriceColumns: permaticker ${perm} is in two parts`);
      seen.add(perm);
    }
  return {
    table: parts[0].table.map((_, k) => concatColumns(parts.map((p) => p.table[k]))),
    ranges: {
      perm: parts.flatMap((p) => p.ranges.perm),
      first: parts.flatMap((p) => p.ranges.first),
      last: parts.flatMap((p) => p.ranges.last),
    },
  };
}

/** The facts table's columns, in DDL order (schema.ts). */
export const FACT_COLUMNS: ColumnSpec<FactRecord>[] = [
  { name: 'permaticker', kind: 'integer', get: (r) => r.permaticker },
  { name: 'concept', kind: 'varchar', get: (r) => r.concept },
  { name: 'value', kind: 'double', get: (r) => r.value },
  { name: 'unit', kind: 'varchar', get: (r) => r.unit },
  { name: 'period_start', kind: 'date', get: (r) => r.periodStart },
  { name: 'period_end', kind: 'date', get: (r) => r.periodEnd },
  { name: 'fiscal_year', kind: 'integer', get: (r) => r.fiscalYear },
  { name: 'fiscal_period', kind: 'varchar', get: (r) => r.fiscalPeriod },
  { name: 'form', kind: 'varchar', get: (r) => r.form },
  { name: 'filed', kind: 'date', get: (r) => r.filed },
  { name: 'accession', kind: 'varchar', get: (r) => r.accession },
  { name: 'source', kind: 'varchar', get: (r) => r.source },
  { name: 'source_tag', kind: 'varchar', get: (r) => r.sourceTag },
];

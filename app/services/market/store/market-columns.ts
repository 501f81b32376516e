import { fromEpochDay } from '../../dates';
import type { FactRecord, PriceRecord } from './records';
import { concatColumns, epochDayOf, type CodedRows, type ColumnSpec, type TypedColumn } from './typed-columns';

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
  const keys = [...ranges.keys()];
  return priceTable(perm, day, doubles, {
    perm: keys,
    first: keys.map((k) => ranges.get(k)!.first),
    last: keys.map((k) => ranges.get(k)!.last),
  });
}

/** The prices table's columns in DDL order, from the permatickers, days and PRICE_DOUBLES columns. */
function priceTable(perm: Int32Array, day: Int32Array, doubles: Float64Array[], ranges: PriceColumns['ranges']): PriceColumns {
  return {
    table: [
      { kind: 'integer', values: perm },
      { kind: 'date', values: day },
      ...doubles.map((values) => ({ kind: 'double' as const, values })),
    ],
    ranges,
  };
}

/** One security's prices as typed columns, days ascending (NaN: no value; close has one on every day). */
export type SecurityPrices = {
  permaticker: number;
  day: Int32Array;
} & Record<(typeof PRICE_DOUBLES)[number], Float64Array>;

/** A security's price columns as records (NaN as null), e.g. for tests that read a day at a time. */
export function securityPriceRecords(p: SecurityPrices): PriceRecord[] {
  const orNull = (v: number) => (Number.isNaN(v) ? null : v);
  return Array.from(p.day, (day, i) => ({
    permaticker: p.permaticker,
    date: fromEpochDay(day),
    open: orNull(p.open[i]),
    high: orNull(p.high[i]),
    low: orNull(p.low[i]),
    close: p.close[i],
    volume: orNull(p.volume[i]),
    closeUnadj: orNull(p.closeUnadj[i]),
    tri: orNull(p.tri[i]),
  }));
}

/**
 * Securities' prices built as columns (the demo generator's), one security after another, checked
 * as priceColumns checks rows: each security once, days strictly ascending, close finite, every
 * other value finite or NaN.
 */
export function pricesOfSecurities(parts: readonly SecurityPrices[]): PriceColumns {
  const n = parts.reduce((sum, p) => sum + p.day.length, 0);
  const perm = new Int32Array(n);
  const day = new Int32Array(n);
  const doubles = PRICE_DOUBLES.map(() => new Float64Array(n));
  const seen = new Set<number>();
  const ranges: PriceColumns['ranges'] = { perm: [], first: [], last: [] };
  let at = 0;
  for (const part of parts) {
    const m = part.day.length;
    if (!Number.isInteger(part.permaticker)) throw new Error(`prices: permaticker must be an integer, got ${part.permaticker}`);
    if (seen.has(part.permaticker)) throw new Error(`prices: permaticker ${part.permaticker} is given twice`);
    seen.add(part.permaticker);
    for (let i = 1; i < m; i++)
      if (!(part.day[i] > part.day[i - 1]))
        throw new Error(`prices of permaticker ${part.permaticker}: day ${i + 1} does not follow day ${i}`);
    PRICE_DOUBLES.forEach((key, c) => {
      const v = part[key];
      if (v.length !== m)
        throw new Error(`prices of permaticker ${part.permaticker}: ${PRICE_DOUBLE_COLUMNS[key]} has ${v.length} values for ${m} days`);
      for (let i = 0; i < m; i++)
        if (v[i] === Infinity || v[i] === -Infinity || (key === 'close' && Number.isNaN(v[i])))
          throw new Error(
            `prices of permaticker ${part.permaticker} row ${i + 1}: ${PRICE_DOUBLE_COLUMNS[key]} must be a finite number, got ${v[i]}`,
          );
      doubles[c].set(v, at);
    });
    perm.fill(part.permaticker, at, at + m);
    day.set(part.day, at);
    if (m > 0) {
      ranges.perm.push(part.permaticker);
      ranges.first.push(part.day[0]);
      ranges.last.push(part.day[m - 1]);
    }
    at += m;
  }
  return priceTable(perm, day, doubles, ranges);
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

/** What a filing's facts share, dates as epoch days (FactColumnsBuilder). */
export type FilingFacts = {
  permaticker: number;
  periodEnd: number;
  fiscalYear: number | null;
  form: string | null;
  filed: number;
  accession: string | null;
  source: string;
};

const FACT_COLUMN = Object.fromEntries(FACT_COLUMNS.map((c, k) => [c.name, k])) as Record<string, number>;

/**
 * Facts coded as codeRows(FACT_COLUMNS) codes them (texts as codes, dates as epoch days), added
 * a fact at a time without a record each: the demo generator's ~1,800 facts a company as objects,
 * and their coding, were a quarter of its time.
 */
export class FactColumnsBuilder {
  private rows = 0;
  private capacity = 1024;
  private readonly values = FACT_COLUMNS.map((c) => (c.kind === 'double' ? new Float64Array(1024) : new Int32Array(1024)));
  private readonly nulls: (Uint8Array | null)[] = FACT_COLUMNS.map(() => null);
  private readonly known = FACT_COLUMNS.map((c) => (c.kind === 'varchar' ? new Map<string, number>() : null));
  /** The current filing's column values (codes for texts), by column; null until one is started. */
  private shared: { column: number; value: number | null }[] | null = null;

  /** Starts a filing: the facts added next are its. */
  filing(f: FilingFacts): void {
    for (const [name, v] of [
      ['permaticker', f.permaticker],
      ['period_end', f.periodEnd],
      ['filed', f.filed],
    ] as const)
      if (!Number.isInteger(v)) throw new Error(`facts: ${name} must be an integer, got ${v}`);
    if (f.fiscalYear !== null && !Number.isInteger(f.fiscalYear))
      throw new Error(`facts: fiscal_year must be an integer, got ${f.fiscalYear}`);
    this.shared = [
      { column: FACT_COLUMN.permaticker, value: f.permaticker },
      { column: FACT_COLUMN.period_end, value: f.periodEnd },
      { column: FACT_COLUMN.fiscal_year, value: f.fiscalYear },
      { column: FACT_COLUMN.form, value: this.code(FACT_COLUMN.form, f.form) },
      { column: FACT_COLUMN.filed, value: f.filed },
      { column: FACT_COLUMN.accession, value: this.code(FACT_COLUMN.accession, f.accession) },
      { column: FACT_COLUMN.source, value: this.code(FACT_COLUMN.source, f.source) },
      { column: FACT_COLUMN.source_tag, value: 0 },
    ];
  }

  /** One fact of the current filing (`periodStart` an epoch day, null for an instant). */
  add(concept: string, value: number, unit: string, periodStart: number | null, fiscalPeriod: string | null): void {
    if (!this.shared) throw new Error('facts: a fact added before its filing');
    if (!Number.isFinite(value)) throw new Error(`facts row ${this.rows + 1}: value must be a finite number, got ${value}`);
    if (periodStart !== null && !Number.isInteger(periodStart))
      throw new Error(`facts row ${this.rows + 1}: period_start must be an integer, got ${periodStart}`);
    if (this.rows === this.capacity) this.grow();
    const r = this.rows++;
    for (const { column, value: v } of this.shared) this.set(column, r, v);
    this.set(FACT_COLUMN.concept, r, this.code(FACT_COLUMN.concept, concept));
    this.values[FACT_COLUMN.value][r] = value;
    this.set(FACT_COLUMN.unit, r, this.code(FACT_COLUMN.unit, unit));
    this.set(FACT_COLUMN.period_start, r, periodStart);
    this.set(FACT_COLUMN.fiscal_period, r, this.code(FACT_COLUMN.fiscal_period, fiscalPeriod));
  }

  get size(): number {
    return this.rows;
  }

  finish(): CodedRows {
    const n = this.rows;
    const columns = FACT_COLUMNS.map((c, k): TypedColumn => {
      if (c.kind === 'double') return { kind: 'double', values: (this.values[k] as Float64Array).slice(0, n) };
      const values = (this.values[k] as Int32Array).slice(0, n);
      if (c.kind === 'varchar') return { kind: 'integer', values };
      const nulls = this.nulls[k]?.slice(0, n);
      return nulls ? { kind: c.kind as 'integer' | 'date', values, nulls } : { kind: c.kind as 'integer' | 'date', values };
    });
    const texts = this.known.flatMap((m) => (m ? [[...m.keys()]] : []));
    return { rows: n, kinds: FACT_COLUMNS.map((c) => c.kind), columns, texts };
  }

  /** A text's code in column k (0 for NULL), numbered as first seen, as codeRows numbers them. */
  private code(k: number, text: string | null): number {
    if (text === null) return 0;
    const known = this.known[k]!;
    let code = known.get(text);
    if (code === undefined) known.set(text, (code = known.size + 1));
    return code;
  }

  private set(k: number, r: number, v: number | null): void {
    if (v === null) (this.nulls[k] ??= new Uint8Array(this.capacity))[r] = 1;
    else this.values[k][r] = v;
  }

  private grow(): void {
    this.capacity *= 2;
    this.values.forEach((v, k) => {
      const bigger = v instanceof Float64Array ? new Float64Array(this.capacity) : new Int32Array(this.capacity);
      bigger.set(v);
      this.values[k] = bigger;
    });
    this.nulls.forEach((v, k) => {
      if (!v) return;
      const bigger = new Uint8Array(this.capacity);
      bigger.set(v);
      this.nulls[k] = bigger;
    });
  }
}

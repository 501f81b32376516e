import { toEpochDay } from '../../dates';
import type { MetricSnapshot } from '../../metrics/engine/types';
import type { Universe } from '../model';
import { keepComparing, keepWhere } from './compare';
import type { CodedColumn, PreparedUniverse, SecurityMeta } from './types';

// Joins a snapshot with the securities' descriptive fields once, so every screen evaluated on
// that date (a page, its CSV, a backtest's rebalance) reuses the same row-aligned arrays.

function coder(): { code: (v: string | null) => number; column: (codes: Int32Array) => CodedColumn } {
  const index = new Map<string, number>();
  const dictionary: string[] = [];
  return {
    code(v) {
      if (v === null || v === '') return -1;
      let c = index.get(v);
      if (c === undefined) {
        c = dictionary.length;
        dictionary.push(v);
        index.set(v, c);
      }
      return c;
    },
    column: (codes) => ({ codes, dictionary }),
  };
}

export function prepareUniverse(snapshot: MetricSnapshot, securities: Iterable<SecurityMeta>): PreparedUniverse {
  const byPermaticker = new Map<number, SecurityMeta>();
  for (const s of securities) byPermaticker.set(s.permaticker, s);
  const n = snapshot.permatickers.length;
  const known = new Uint8Array(n);
  const ticker = new Array<string>(n);
  const name = new Array<string>(n);
  const delistedAsOf = new Uint8Array(n);
  const ex = coder();
  const sec = coder();
  const ind = coder();
  const exCodes = new Int32Array(n);
  const secCodes = new Int32Array(n);
  const indCodes = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const m = byPermaticker.get(snapshot.permatickers[r]);
    if (!m) {
      ticker[r] = String(snapshot.permatickers[r]);
      name[r] = '';
      exCodes[r] = secCodes[r] = indCodes[r] = -1;
      continue;
    }
    known[r] = 1;
    ticker[r] = m.ticker;
    name[r] = m.name;
    exCodes[r] = ex.code(m.exchange);
    secCodes[r] = sec.code(m.sector);
    indCodes[r] = ind.code(m.industry);
    // Delisted later is still listed as of an earlier date (no survivorship bias in backtests).
    if (m.isDelisted && (m.lastPriceDate === null || toEpochDay(m.lastPriceDate) <= snapshot.day)) delistedAsOf[r] = 1;
  }
  return {
    snapshot,
    size: n,
    known,
    ticker,
    name,
    exchange: ex.column(exCodes),
    sector: sec.column(secCodes),
    industry: ind.column(indCodes),
    delistedAsOf,
  };
}

export function codesOf(column: CodedColumn, values: readonly string[]): Set<number> {
  const wanted = new Set(values.map((v) => v.toLowerCase()));
  const out = new Set<number>();
  column.dictionary.forEach((v, i) => {
    if (wanted.has(v.toLowerCase())) out.add(i);
  });
  return out;
}

export type UniverseCheck = {
  label: string;
  test: (row: number) => boolean;
  /** `test` over many rows: the passing ones written to `out` (may be `rows`); returns their count. */
  keep: (rows: Int32Array, out: Int32Array) => number;
  value: (row: number) => number | string | null;
};

/** The universe's filters as row tests (each one explained on its own by `explain`). */
export function universeChecks(u: Universe, p: PreparedUniverse): UniverseCheck[] {
  const checks: UniverseCheck[] = [];
  const coded = (label: string, column: CodedColumn, values: string[]) => {
    if (values.length === 0) return;
    const codes = codesOf(column, values);
    const test = (r: number) => codes.has(column.codes[r]);
    checks.push({
      label: `${label} is ${values.join(' or ')}`,
      test,
      keep: (rows, out) => keepWhere(test, rows, out),
      value: (r) => (column.codes[r] < 0 ? null : column.dictionary[column.codes[r]]),
    });
  };
  coded('Exchange', p.exchange, u.exchanges);
  coded('Sector', p.sector, u.sectors);
  coded('Industry', p.industry, u.industries);
  const mcap = p.snapshot.values.market_cap;
  const mcapValue = (r: number) => (mcap && !Number.isNaN(mcap[r]) ? mcap[r] : null);
  if (u.marketCapMin !== null) {
    const min = u.marketCapMin;
    checks.push({
      label: `Market cap ≥ ${min}`,
      test: (r) => mcap !== undefined && mcap[r] >= min,
      keep: (rows, out) => (mcap === undefined ? 0 : keepComparing('>=', mcap, min, rows, out)),
      value: mcapValue,
    });
  }
  if (u.marketCapMax !== null) {
    const max = u.marketCapMax;
    checks.push({
      label: `Market cap ≤ ${max}`,
      test: (r) => mcap !== undefined && mcap[r] <= max,
      keep: (rows, out) => (mcap === undefined ? 0 : keepComparing('<=', mcap, max, rows, out)),
      value: mcapValue,
    });
  }
  if (!u.includeDelisted) {
    const delisted = p.delistedAsOf;
    const keep = (rows: Int32Array, out: Int32Array) => {
      let k = 0;
      for (let i = 0; i < rows.length; i++) if (delisted[rows[i]] === 0) out[k++] = rows[i];
      return k;
    };
    checks.push({ label: 'Listed on the date', test: (r) => delisted[r] === 0, keep, value: (r) => (delisted[r] ? 'delisted' : 'listed') });
  }
  return checks;
}

/** Rows in the universe, ascending. */
export function universeRows(u: Universe, p: PreparedUniverse): Int32Array {
  const out = new Int32Array(p.size);
  let k = 0;
  for (let r = 0; r < p.size; r++) if (p.known[r]) out[k++] = r;
  for (const c of universeChecks(u, p)) k = c.keep(out.subarray(0, k), out);
  return out.subarray(0, k);
}

import { promisify } from 'node:util';
import { gunzip, gunzipSync, gzipSync } from 'node:zlib';
import { decodeColumns, encodeColumns, type ColumnSet } from '../market/store/column-file';
import type { BacktestResult, BacktestStatistics, Holding, Rebalancing, Trade } from './engine';
import { packFloats, unpackFloats, type FloatPacking } from './packed-floats';
import { HOLDING_COUNTS, TRADE_ROWS, type TradeRows } from './stored-rows';

// A stored result: the engine's result plus the survivors-only comparison, gzipped and base64
// encoded (the same text column on SQLite and PostgreSQL). Numbers read back are bit-identical to
// the ones computed (JSON writes doubles in their shortest round-tripping form, columns are the
// doubles themselves).

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
const toJson = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? { $num: String(x) } : x));
const fromJson = (text: string) => JSON.parse(text, (_k, v: unknown) => (isSpecial(v) ? Number(v.$num) : v)) as unknown;

// Format 2 (engine 2.0.0 on): the holdings of every rebalance and the trade log, which can run to
// millions of rows (daily rebalancing of hundreds of names), are stored as typed columns beside
// a small JSON part — a few bytes a row instead of a JSON object each — and turned back into rows
// only when read (a rebalance's holdings when opened, the trade log when listed). Format 3 (from
// here on) is format 2 with its number columns in their smallest exact form (packed-floats.ts):
// prices as whole thousandths, a market cap as the change of its company's share count, a trade's
// shares not stored at all (its value over its price): from
// 50 → 30 characters a position (a two-year daily top-500 run: 12.7 → 7.7 MB). Formats 1 (plain JSON) and 2 stay readable. All are gzipped and
// base64-encoded into the same text column.
const FORMAT_2 = Buffer.from('QBT2');
const FORMAT_3 = Buffer.from('QBT3');
const SIDES = ['buy', 'sell'] as const;
const REASONS = ['rebalance', 'delisted'] as const;

type Light = Omit<StoredResult, 'rebalances' | 'trades'> & {
  rebalances: Omit<Rebalancing, 'holdings'>[];
  tickers: Record<string, string>;
  holdingMetrics: string[];
  /** Format 3: how each packed number column was written (absent: raw doubles). */
  packings?: Record<string, FloatPacking>;
};

export function encodeResult(r: StoredResult): string {
  const tickers: Record<string, string> = {};
  const metrics = holdingMetricsOf(r.rebalances);
  const rows = r.rebalances.reduce((n, b) => n + b.holdings.length, 0);
  const holdingCount = Int32Array.from(r.rebalances, (b) => b.holdings.length);
  const hPerm = new Int32Array(rows);
  const hWeight = new Float64Array(rows);
  const hRank = new Int32Array(rows);
  const hValues = metrics.map(() => new Float64Array(rows));
  const hKnown = metrics.map(() => new Int32Array(rows));
  let k = 0;
  for (const b of r.rebalances)
    for (const h of b.holdings) {
      tickers[h.permaticker] = h.ticker;
      hPerm[k] = h.permaticker;
      hWeight[k] = h.weight;
      hRank[k] = h.rank ?? -1;
      metrics.forEach((m, j) => {
        const v = h.values[m];
        hKnown[j][k] = m in h.values ? (v === null ? 1 : 2) : 0;
        hValues[j][k] = v ?? Number.NaN;
      });
      k++;
    }
  const dateIndex = new Map(r.dates.map((d, i) => [d, i]));
  const t = r.trades;
  for (const x of t) tickers[x.permaticker] = x.ticker;
  const columns: ColumnSet = {
    holdingCount,
    hPerm,
    hRank,
    tDate: Int32Array.from(t, (x) => dateIndex.get(x.date) ?? -1),
    tPerm: Int32Array.from(t, (x) => x.permaticker),
    tKind: Int32Array.from(t, (x) => SIDES.indexOf(x.side) * 2 + REASONS.indexOf(x.reason)),
  };
  const packings: Record<string, FloatPacking> = {};
  const pack = (name: string, values: Float64Array, opts?: Parameters<typeof packFloats>[3]) => {
    packings[name] = packFloats(columns, name, values, opts);
  };
  pack('hWeight', hWeight);
  metrics.forEach((_m, j) => {
    columns[`hKnown${j}`] = hKnown[j];
  });
  // A price first: other metrics (market cap) may be whole multiples of it.
  const priceAt = metrics.indexOf('price');
  if (priceAt >= 0) pack(`hValue${priceAt}`, hValues[priceAt]);
  const factor = priceAt >= 0 ? { name: `hValue${priceAt}`, values: hValues[priceAt], keys: { name: 'hPerm', values: hPerm } } : undefined;
  metrics.forEach((_m, j) => {
    if (j !== priceAt) pack(`hValue${j}`, hValues[j], { factor });
  });
  const tValue = Float64Array.from(t, (x) => x.value);
  const tPrice = Float64Array.from(t, (x) => x.price);
  pack('tValue', tValue);
  pack('tPrice', tPrice);
  pack(
    'tShares',
    Float64Array.from(t, (x) => x.shares),
    {
      quotient: { numerator: { name: 'tValue', values: tValue }, denominator: { name: 'tPrice', values: tPrice } },
    },
  );
  pack(
    'tCost',
    Float64Array.from(t, (x) => x.cost),
  );
  const { rebalances, trades: _trades, ...rest } = r;
  const light: Light = {
    ...rest,
    rebalances: rebalances.map(({ holdings: _h, ...b }) => b),
    tickers,
    holdingMetrics: metrics,
    packings,
  };
  const json = Buffer.from(toJson(light));
  const head = Buffer.alloc(8);
  FORMAT_3.copy(head, 0);
  head.writeUInt32LE(json.length, 4);
  const bytes = Buffer.concat([head, json, encodeColumns(columns)]);
  // Level 1: most of the size for a fraction of the time (this runs at the end of every backtest).
  return gzipSync(bytes, { level: 1 }).toString('base64');
}

/** The columns with every packed one read back into its doubles. */
function unpackedColumns(stored: ColumnSet, packings: Record<string, FloatPacking>): ColumnSet {
  const out: ColumnSet = { ...stored };
  const lengths: Record<string, number> = {};
  const rowsOf = (name: string) => (name.startsWith('h') ? stored.hPerm.length : stored.tPerm.length);
  const read = (name: string): Float64Array | Int32Array => {
    const packing = packings[name];
    if (!packing || packing.kind === 'raw' || name in lengths) return out[name];
    lengths[name] = rowsOf(name);
    out[name] = unpackFloats(stored, name, packing, lengths[name], read);
    return out[name];
  };
  for (const name of Object.keys(packings)) read(name);
  return out;
}

function holdingMetricsOf(rebalances: readonly Rebalancing[]): string[] {
  const seen = new Set<string>();
  for (const b of rebalances) for (const h of b.holdings) for (const m of Object.keys(h.values)) seen.add(m);
  return [...seen];
}

export function decodeResult(text: string): StoredResult {
  return decodeBytes(gunzipSync(Buffer.from(text, 'base64')));
}

const gunzipAsync = promisify(gunzip);

/** decodeResult with the unzipping off the calling thread (the web process reads results with it). */
export async function decodeResultAsync(text: string): Promise<StoredResult> {
  return decodeBytes(await gunzipAsync(Buffer.from(text, 'base64')));
}

function decodeBytes(bytes: Buffer): StoredResult {
  const format = bytes.subarray(0, 4);
  if (!format.equals(FORMAT_2) && !format.equals(FORMAT_3)) return fromJson(bytes.toString('utf8')) as StoredResult;
  const jsonLength = bytes.readUInt32LE(4);
  const light = fromJson(bytes.subarray(8, 8 + jsonLength).toString('utf8')) as Light;
  const c = unpackedColumns(decodeColumns(bytes.subarray(8 + jsonLength)), light.packings ?? {});
  const { tickers, holdingMetrics: metrics, rebalances: summaries, packings: _p, ...rest } = light;
  const ticker = (perm: number) => tickers[perm] ?? String(perm);
  const counts = c.holdingCount;
  const start = new Int32Array(counts.length + 1);
  for (let i = 0; i < counts.length; i++) start[i + 1] = start[i] + counts[i];
  const holdingsOf = (i: number): Holding[] => {
    const out: Holding[] = [];
    for (let k = start[i]; k < start[i + 1]; k++) {
      const values: Record<string, number | null> = {};
      metrics.forEach((m, j) => {
        const known = c[`hKnown${j}`][k];
        if (known > 0) values[m] = known === 2 ? c[`hValue${j}`][k] : null;
      });
      const perm = c.hPerm[k];
      out.push({ permaticker: perm, ticker: ticker(perm), weight: c.hWeight[k], rank: c.hRank[k] < 0 ? null : c.hRank[k], values });
    }
    return out;
  };
  const rebalances = summaries.map((b, i) => lazily({ ...b } as Rebalancing, 'holdings', () => holdingsOf(i)));
  const tradeAt = (i: number): Trade => ({
    date: light.dates[c.tDate[i]],
    permaticker: c.tPerm[i],
    ticker: ticker(c.tPerm[i]),
    side: SIDES[c.tKind[i] >> 1],
    reason: REASONS[c.tKind[i] & 1],
    value: c.tValue[i],
    price: c.tPrice[i],
    shares: c.tShares[i],
    cost: c.tCost[i],
  });
  const result = lazily({ ...rest, rebalances } as StoredResult, 'trades', () =>
    Array.from({ length: c.tPerm.length }, (_, i) => tradeAt(i)),
  );
  Object.defineProperty(result, TRADE_ROWS, { value: { count: c.tPerm.length, at: tradeAt } satisfies TradeRows, enumerable: false });
  Object.defineProperty(result, HOLDING_COUNTS, { value: counts, enumerable: false });
  return result;
}

/** `key` of `target` computed on first read (and kept), still a plain enumerable property for JSON. */
function lazily<T extends object, K extends keyof T>(target: T, key: K, compute: () => T[K]): T {
  let value: T[K] | undefined;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => (value ??= compute()),
  });
  return target;
}

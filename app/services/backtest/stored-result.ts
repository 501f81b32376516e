import { promisify } from 'node:util';
import { LRUCache } from 'lru-cache';
import {
  brotliCompressSync,
  brotliDecompress,
  brotliDecompressSync,
  constants as zlibConstants,
  gunzip,
  gunzipSync,
  gzipSync,
} from 'node:zlib';
import { decodeColumns, encodeColumns, type ColumnSet } from '../market/store/column-file';
import type { BacktestResult, BacktestStatistics, Holding, Rebalancing, Trade } from './engine';
import { packFloats, unpackFloats, type FloatPacking } from './packed-floats';
import {
  HOLDING_COUNTS,
  holdingCount,
  tradeCount,
  tradeSlice,
  TRADE_ROWS,
  type LoadedResult,
  type PartKind,
  type ResultRows,
  type StoredLight,
  type TradeRows,
} from './stored-rows';

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
  holdsNonFinite(v)
    ? JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? { $num: String(x) } : x))
    : JSON.stringify(v);

/**
 * Whether a value holds a number JSON cannot write (NaN, ±Infinity). A replacer costs a call per
 * value (most of the encoding's time on curves of thousands of days): a result without such a
 * number is written without one, as the reader parses a text without "$num" without a reviver.
 */
function holdsNonFinite(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isFinite(v);
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (holdsNonFinite(v[i])) return true;
    return false;
  }
  for (const k in v) if (holdsNonFinite((v as Record<string, unknown>)[k])) return true;
  return false;
}
// A reviver costs a call per value: a text without any such object is parsed without one.
const fromJson = (text: string) =>
  (text.includes('"$num"') ? JSON.parse(text, (_k, v: unknown) => (isSpecial(v) ? Number(v.$num) : v)) : JSON.parse(text)) as unknown;

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

type Packed = { columns: ColumnSet; packings: Record<string, FloatPacking> };

/** The holdings of `rebalances` as columns: a count per rebalance, then one row per holding. */
function holdingColumns(rebalances: readonly Rebalancing[], metrics: readonly string[], tickers: Record<string, string>): Packed {
  const rows = rebalances.reduce((n, b) => n + b.holdings.length, 0);
  const holdingCount = Int32Array.from(rebalances, (b) => b.holdings.length);
  const hPerm = new Int32Array(rows);
  const hWeight = new Float64Array(rows);
  const hRank = new Int32Array(rows);
  const hValues = metrics.map(() => new Float64Array(rows));
  const hKnown = metrics.map(() => new Int32Array(rows));
  let k = 0;
  for (const b of rebalances)
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
  const columns: ColumnSet = { holdingCount, hPerm, hRank };
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
  return { columns, packings };
}

/** Trades as columns (a date as its index in the result's dates). */
function tradeColumns(t: readonly Trade[], dateIndex: ReadonlyMap<string, number>, tickers: Record<string, string>): Packed {
  const n = t.length;
  const tDate = new Int32Array(n);
  const tPerm = new Int32Array(n);
  const tKind = new Int32Array(n);
  const tValue = new Float64Array(n);
  const tPrice = new Float64Array(n);
  const tShares = new Float64Array(n);
  const tCost = new Float64Array(n);
  // One pass with plain loops: TypedArray.from with a map function over an array of objects was
  // a third of a monthly 25-year top-50 result's encoding (19,000 trades).
  let lastDate = '';
  let lastIndex = -1;
  for (let i = 0; i < n; i++) {
    const x = t[i];
    tickers[x.permaticker] = x.ticker;
    // A day's trades are together: one date lookup per trade day.
    if (x.date !== lastDate) {
      lastDate = x.date;
      lastIndex = dateIndex.get(x.date) ?? -1;
    }
    tDate[i] = lastIndex;
    tPerm[i] = x.permaticker;
    tKind[i] = SIDES.indexOf(x.side) * 2 + REASONS.indexOf(x.reason);
    tValue[i] = x.value;
    tPrice[i] = x.price;
    tShares[i] = x.shares;
    tCost[i] = x.cost;
  }
  const columns: ColumnSet = { tDate, tPerm, tKind };
  const packings: Record<string, FloatPacking> = {};
  const pack = (name: string, values: Float64Array, opts?: Parameters<typeof packFloats>[3]) => {
    packings[name] = packFloats(columns, name, values, opts);
  };
  pack('tValue', tValue);
  pack('tPrice', tPrice);
  pack('tShares', tShares, {
    quotient: { numerator: { name: 'tValue', values: tValue }, denominator: { name: 'tPrice', values: tPrice } },
  });
  pack('tCost', tCost);
  return { columns, packings };
}

/** A magic, the length of a JSON part, the JSON, then whatever follows. */
function framed(magic: Buffer, json: unknown, rest: Buffer): Buffer {
  const text = Buffer.from(toJson(json));
  const head = Buffer.alloc(8);
  magic.copy(head, 0);
  head.writeUInt32LE(text.length, 4);
  return Buffer.concat([head, text, rest]);
}

// Level 1: most of the size for a fraction of the time (this runs at the end of every backtest).
const zipped = (bytes: Buffer) => gzipSync(bytes, { level: 1 }).toString('base64');

/**
 * Format 4's texts (the light part and each part) are brotli-compressed at quality 1 instead, the
 * base64 after this prefix (':' is not a base64 character, so a gzipped text never starts with
 * it). On a five-year daily curve's 120 KB light part: 0.7 ms for 40 KB where gzip level 1 took
 * 1.4–1.8 ms for 47 KB, and 0.5 ms to read back where gunzip took 0.4 ms. Texts written gzipped
 * by earlier versions read as before.
 */
const BROTLI_PREFIX = 'br:';
const BROTLI_OPTIONS = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } };
const brotlied = (bytes: Buffer) => BROTLI_PREFIX + brotliCompressSync(bytes, BROTLI_OPTIONS).toString('base64');

/** Format 3: the whole result in one text (results are now stored paged, `encodePagedResult`). */
export function encodeResult(r: StoredResult): string {
  const tickers: Record<string, string> = {};
  const metrics = holdingMetricsOf(r.rebalances);
  const h = holdingColumns(r.rebalances, metrics, tickers);
  const t = tradeColumns(r.trades, new Map(r.dates.map((d, i) => [d, i])), tickers);
  const { rebalances, trades: _trades, ...rest } = r;
  const light: Light = {
    ...rest,
    rebalances: rebalances.map(({ holdings: _h, ...b }) => b),
    tickers,
    holdingMetrics: metrics,
    packings: { ...h.packings, ...t.packings },
  };
  return zipped(framed(FORMAT_3, light, encodeColumns({ ...h.columns, ...t.columns })));
}

// Format 4 (from here on): paged. A daily top-500 run over twenty years keeps millions of holding
// and trade rows (tens of MB even packed), and reading or writing them as one text stalls the
// process that does it. The light part (everything but holdings and trades: statistics, curves,
// dates, rebalance summaries with their holding counts, tickers, the survivors comparison) is
// the text of the backtest row; holdings and trades are parts of at most RESULT_PART_ROWS rows
// (a holdings part holds whole rebalances, so one larger than that is a part of its own), each
// the columns of format 3 for its rows, gzipped and base64 encoded, stored in their own rows
// (backtest_result_parts) under a key the light part names. Readers load only the parts that
// cover the rows they show.
const FORMAT_4 = Buffer.from('QBT4');
const PART_4 = Buffer.from('QBP4');

/** Holding or trade rows one stored part keeps at most (a rebalance larger than that is one part). */
export const RESULT_PART_ROWS = 50_000;

export type ResultPart = { kind: PartKind; seq: number; rows: number; data: string };
/** `light`: the stored light part's text; `parts`: the holdings and trades parts. */
export type PagedEncoding = { light: string; parts: ResultPart[] };

/** A decoded light part (format 4), opaque outside this module. */
export type StoredLightPart = { readonly parts: { readonly key: string } };

type Light4 = Omit<Light, 'packings'> & {
  holdingCounts: number[];
  tradeCount: number;
  /** Where the parts are: their key, and the first rebalance (holdings) or trade of each. */
  parts: { key: string; holdings: number[]; trades: number[] };
};

/**
 * The daily curves of a light part, stored as Float64 columns after its JSON (null in the JSON,
 * so every key keeps its place). Writing and parsing a double as text is most of the time a
 * light part takes: a five-year daily run's five curves are 6,300 of them. Light parts written
 * before hold them in the JSON and no columns.
 */
const CURVES = ['equity', 'benchmark', 'drawdown'] as const;
const SURVIVORS_CURVE = 'survivorsEquity';

function curveColumns(r: StoredResult): ColumnSet {
  const columns: ColumnSet = {};
  for (const name of CURVES) columns[name] = Float64Array.from(r[name]);
  if (r.survivors) columns[SURVIVORS_CURVE] = Float64Array.from(r.survivors.equity);
  return columns;
}

/** `light` with its curves read back from the columns after its JSON (when there are any). */
function withCurves(light: Light4, columns: Buffer): Light4 {
  if (columns.length === 0) return light;
  const c = decodeColumns(columns);
  for (const name of CURVES) light[name] = Array.from(c[name]);
  if (light.survivors) light.survivors.equity = Array.from(c[SURVIVORS_CURVE]);
  return light;
}

/**
 * Where `encodePagedResult` puts a result's rows (the rebalances of each holdings part, the first
 * trade of each trades part) and the tickers its parts name: known before any part is encoded, so
 * the light part can be handed to a waiting request while the parts are still being written.
 */
export type PagedLayout = {
  tickers: Record<string, string>;
  metrics: string[];
  /** [first, end) rebalances of each holdings part. */
  holdingRanges: [number, number][];
  tradeStarts: number[];
};

export function pagedLayout(r: StoredResult, partRows = RESULT_PART_ROWS): PagedLayout {
  // In the order the parts' columns name them (holdings, then trades): a permaticker whose ticker
  // changed keeps the last one, as a reader of the parts sees it.
  const tickers: Record<string, string> = {};
  for (const b of r.rebalances) for (const h of b.holdings) tickers[h.permaticker] = h.ticker;
  for (const x of r.trades) tickers[x.permaticker] = x.ticker;
  const holdingRanges: [number, number][] = [];
  for (let from = 0; from < r.rebalances.length;) {
    let to = from;
    let rows = 0;
    while (to < r.rebalances.length && (to === from || rows + r.rebalances[to].holdings.length <= partRows))
      rows += r.rebalances[to++].holdings.length;
    holdingRanges.push([from, to]);
    from = to;
  }
  const tradeStarts: number[] = [];
  for (let from = 0; from < r.trades.length; from += partRows) tradeStarts.push(from);
  return { tickers, metrics: holdingMetricsOf(r.rebalances), holdingRanges, tradeStarts };
}

/**
 * The light part `encodePagedResult` stores for `r` under `key` as a reader of its text gets it
 * (readStoredLight turns it into the LoadedResult readStoredResult gives): the compute process
 * hands it to the request waiting for the run instead of that request reading the text back.
 */
export function pagedLightRead(r: StoredResult, key: string, layout: PagedLayout): StoredLightPart {
  const read: Light4 = { ...lightOf(r, key, layout), equity: r.equity, benchmark: r.benchmark, drawdown: r.drawdown };
  if (read.survivors && r.survivors) read.survivors = { ...read.survivors, equity: r.survivors.equity };
  return read;
}

function lightOf(r: StoredResult, key: string, layout: PagedLayout): Light4 {
  const { rebalances, trades, ...rest } = r;
  return {
    ...rest,
    // In the columns after the JSON (curveColumns).
    equity: null as unknown as number[],
    benchmark: null as unknown as number[],
    drawdown: null as unknown as number[],
    survivors: rest.survivors && { ...rest.survivors, equity: null as unknown as number[] },
    rebalances: rebalances.map(({ holdings: _h, ...b }) => b),
    tickers: layout.tickers,
    holdingMetrics: layout.metrics,
    holdingCounts: rebalances.map((b) => b.holdings.length),
    tradeCount: trades.length,
    parts: { key, holdings: layout.holdingRanges.map(([from]) => from), trades: layout.tradeStarts },
  };
}

/** `r` as a light part and its holdings and trades parts, stored under `key` (`layout`: `pagedLayout(r, partRows)`, when already made). */
export function encodePagedResult(
  r: StoredResult,
  key: string,
  partRows = RESULT_PART_ROWS,
  layout: PagedLayout = pagedLayout(r, partRows),
): PagedEncoding {
  const dateIndex = new Map(r.dates.map((d, i) => [d, i]));
  const part = (kind: PartKind, seq: number, rows: number, p: Packed): ResultPart => ({
    kind,
    seq,
    rows,
    data: brotlied(framed(PART_4, { packings: p.packings }, encodeColumns(p.columns))),
  });
  // The parts' columns name the same tickers the layout found (a scratch map: the layout's is final).
  const seen: Record<string, string> = {};
  const parts: ResultPart[] = layout.holdingRanges.map(([from, to], seq) => {
    const slice = r.rebalances.slice(from, to);
    const rows = slice.reduce((n, b) => n + b.holdings.length, 0);
    return part('holdings', seq, rows, holdingColumns(slice, layout.metrics, seen));
  });
  layout.tradeStarts.forEach((from, seq) => {
    const slice = r.trades.slice(from, layout.tradeStarts[seq + 1] ?? r.trades.length);
    parts.push(part('trades', seq, slice.length, tradeColumns(slice, dateIndex, seen)));
  });
  const light = lightOf(r, key, layout);
  const text = brotlied(framed(FORMAT_4, light, encodeColumns(curveColumns(r))));
  return { light: text, parts };
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
const unbrotliAsync = promisify(brotliDecompress);
/**
 * Stored bytes up to this size are unzipped on this thread: a light part (tens of KB, read by every
 * page and answer of a backtest) takes ~0.1 ms, less than the round trip to libuv's thread pool.
 */
const UNZIP_HERE_BYTES = 256 * 1024;

/** A stored text's bytes: brotli after its prefix (what the paged writer writes), else gzip (every text written before it). */
function unzipped(text: string): Promise<Buffer> | Buffer {
  const brotli = text.startsWith(BROTLI_PREFIX);
  const zipped = Buffer.from(brotli ? text.slice(BROTLI_PREFIX.length) : text, 'base64');
  const here = zipped.length <= UNZIP_HERE_BYTES;
  if (brotli) return here ? brotliDecompressSync(zipped) : unbrotliAsync(zipped);
  return here ? gunzipSync(zipped) : gunzipAsync(zipped);
}

/** A holding row builder over holding columns: rows [from, to). */
function holdingRows(c: ColumnSet, metrics: readonly string[], ticker: (perm: number) => string) {
  return (from: number, to: number): Holding[] => {
    const out: Holding[] = [];
    for (let k = from; k < to; k++) {
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
}

/** A trade row builder over trade columns. */
function tradeRow(c: ColumnSet, dates: readonly string[], ticker: (perm: number) => string) {
  return (i: number): Trade => ({
    date: dates[c.tDate[i]],
    permaticker: c.tPerm[i],
    ticker: ticker(c.tPerm[i]),
    side: SIDES[c.tKind[i] >> 1],
    reason: REASONS[c.tKind[i] & 1],
    value: c.tValue[i],
    price: c.tPrice[i],
    shares: c.tShares[i],
    cost: c.tCost[i],
  });
}

/** Where each rebalance's holdings start in the holding rows (one more entry: the end). */
function starts(counts: ArrayLike<number>): Int32Array {
  const start = new Int32Array(counts.length + 1);
  for (let i = 0; i < counts.length; i++) start[i + 1] = start[i] + counts[i];
  return start;
}

function decodeBytes(bytes: Buffer): StoredResult {
  const format = bytes.subarray(0, 4);
  if (format.equals(FORMAT_4)) throw new Error('A paged stored result (format 4) is read with readStoredResult');
  if (!format.equals(FORMAT_2) && !format.equals(FORMAT_3)) return fromJson(bytes.toString('utf8')) as StoredResult;
  const jsonLength = bytes.readUInt32LE(4);
  const light = fromJson(bytes.subarray(8, 8 + jsonLength).toString('utf8')) as Light;
  const c = unpackedColumns(decodeColumns(bytes.subarray(8 + jsonLength)), light.packings ?? {});
  const { tickers, holdingMetrics: metrics, rebalances: summaries, packings: _p, ...rest } = light;
  const ticker = (perm: number) => tickers[perm] ?? String(perm);
  const counts = c.holdingCount;
  const start = starts(counts);
  const rowsOf = holdingRows(c, metrics, ticker);
  const rebalances = summaries.map((b, i) => lazily({ ...b } as Rebalancing, 'holdings', () => rowsOf(start[i], start[i + 1])));
  const tradeAt = tradeRow(c, light.dates, ticker);
  const result = lazily({ ...rest, rebalances } as StoredResult, 'trades', () =>
    Array.from({ length: c.tPerm.length }, (_, i) => tradeAt(i)),
  );
  Object.defineProperty(result, TRADE_ROWS, { value: { count: c.tPerm.length, at: tradeAt } satisfies TradeRows, enumerable: false });
  Object.defineProperty(result, HOLDING_COUNTS, { value: counts, enumerable: false });
  return result;
}

/** Reads the text of one stored part (format 4) of the result being read. */
export type PartLoader = (key: string, kind: PartKind, seq: number) => Promise<string>;

/**
 * A stored result for reading: the light part decoded, holdings and trades read on demand (for a
 * paged result, only the parts covering the rows asked for). Unzipping runs off the calling
 * thread; what stays on it is the light part's JSON and the rows asked for.
 */
export async function readStoredResult(text: string, loadPart: PartLoader): Promise<LoadedResult> {
  const bytes = await unzipped(text);
  if (!bytes.subarray(0, 4).equals(FORMAT_4)) return loadedFromStored(decodeBytes(bytes));
  return pagedReader(lightOfBytes(bytes), loadPart);
}

/**
 * The light part of a paged stored text (format 4), as readStoredLight reads it, and its size
 * unzipped (to weigh it in a cache); null for a text of an earlier format (decoded whole).
 */
export async function readLightPart(text: string): Promise<{ light: StoredLightPart; bytes: number } | null> {
  const bytes = await unzipped(text);
  return bytes.subarray(0, 4).equals(FORMAT_4) ? { light: lightOfBytes(bytes), bytes: bytes.length } : null;
}

function lightOfBytes(bytes: Buffer): Light4 {
  const jsonEnd = 8 + bytes.readUInt32LE(4);
  const light = fromJson(bytes.subarray(8, jsonEnd).toString('utf8')) as Light4;
  return withCurves(light, bytes.subarray(jsonEnd));
}

/**
 * The result a light part handed over by the process that stored it reads as (its parts read on
 * demand): what readStoredResult gives for its stored text, without reading and decoding that.
 */
export function readStoredLight(light: StoredLightPart, loadPart: PartLoader): LoadedResult {
  return pagedReader(light as Light4, loadPart);
}

/** Decoded parts kept by one reader (a CSV walks them in order; a page reads one or two). */
const PARTS_KEPT = 3;

type DecodedPart = { columns: ColumnSet; start: Int32Array };

/**
 * Decoded parts read lately, shared by every reader, by run key, kind and number (the parts stored
 * under a run's key never change): a page of a 25-year result unzipped and decoded the same
 * holdings and trades parts again on every request, ~6 ms of each. Bounded by their arrays' bytes.
 */
const sharedParts = new LRUCache<string, DecodedPart>({ maxSize: 32 * 2 ** 20 });

const partBytes = (p: DecodedPart) => Object.values(p.columns).reduce((n, c) => n + c.byteLength, p.start.byteLength);

function pagedReader(light: Light4, loadPart: PartLoader): LoadedResult {
  const { tickers, holdingMetrics: metrics, holdingCounts, tradeCount, parts, ...view } = light;
  const ticker = (perm: number) => tickers[perm] ?? String(perm);
  const cache = new Map<string, Promise<DecodedPart>>();
  const part = (kind: PartKind, seq: number): Promise<DecodedPart> => {
    const id = `${kind}:${seq}`;
    let p = cache.get(id);
    if (!p) {
      const sharedId = `${parts.key}:${id}`;
      const shared = sharedParts.get(sharedId);
      p = shared
        ? Promise.resolve(shared)
        : (async () => {
            const bytes = await unzipped(await loadPart(parts.key, kind, seq));
            if (!bytes.subarray(0, 4).equals(PART_4)) throw new Error(`The stored ${kind} part ${seq} of this result is damaged`);
            const jsonLength = bytes.readUInt32LE(4);
            const head = fromJson(bytes.subarray(8, 8 + jsonLength).toString('utf8')) as { packings: Record<string, FloatPacking> };
            const columns = unpackedColumns(decodeColumns(bytes.subarray(8 + jsonLength)), head.packings);
            const decoded = { columns, start: kind === 'holdings' ? starts(columns.holdingCount) : new Int32Array(0) };
            sharedParts.set(sharedId, decoded, { size: Math.max(1, partBytes(decoded)) });
            return decoded;
          })();
      p.catch(() => cache.delete(id));
      cache.set(id, p);
      if (cache.size > PARTS_KEPT) cache.delete(cache.keys().next().value!);
    }
    return p;
  };
  /** The part holding item i, given the first item of each part. */
  const partOf = (firsts: readonly number[], i: number) => {
    let lo = 0;
    let hi = firsts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (firsts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const rows: ResultRows = {
    holdingCounts,
    tradeCount,
    holdingMetrics: () => [...metrics],
    async holdingsOf(i) {
      if (!(i >= 0 && i < holdingCounts.length) || holdingCounts[i] === 0) return [];
      const seq = partOf(parts.holdings, i);
      const p = await part('holdings', seq);
      const local = i - parts.holdings[seq];
      return holdingRows(p.columns, metrics, ticker)(p.start[local], p.start[local + 1]);
    },
    async tradeSlice(from, to) {
      const out: Trade[] = [];
      let i = Math.max(0, from);
      const end = Math.min(to, tradeCount);
      while (i < end) {
        const seq = partOf(parts.trades, i);
        const first = parts.trades[seq];
        const last = seq + 1 < parts.trades.length ? parts.trades[seq + 1] : tradeCount;
        const at = tradeRow((await part('trades', seq)).columns, light.dates, ticker);
        for (; i < Math.min(end, last); i++) out.push(at(i - first));
      }
      return out;
    },
  };
  return withJson({ light: view, rows });
}

/** A result decoded whole (formats 1 to 3) behind the same accessors. */
export function loadedFromStored(r: StoredResult): LoadedResult {
  const { rebalances, trades: _t, ...rest } = Object.getOwnPropertyDescriptors(r);
  const light = Object.fromEntries(Object.entries(rest).map(([k, d]) => [k, d.value as unknown])) as Omit<StoredLight, 'rebalances'>;
  const summaries = (rebalances.value as Rebalancing[]).map((b) => {
    const { holdings: _h, ...summary } = Object.getOwnPropertyDescriptors(b);
    return Object.fromEntries(Object.entries(summary).map(([k, d]) => [k, d.value as unknown])) as Omit<Rebalancing, 'holdings'>;
  });
  const rows: ResultRows = {
    holdingCounts: r.rebalances.map((_, i) => holdingCount(r, i)),
    tradeCount: tradeCount(r),
    holdingMetrics: () => holdingMetricsOf(r.rebalances),
    holdingsOf: async (i) => r.rebalances[i]?.holdings ?? [],
    tradeSlice: async (from, to) => tradeSlice(r, from, to),
  };
  return withJson({ light: { ...light, rebalances: summaries }, rows });
}

/** As JSON (logs, comparisons in tests): the light part and the sizes of the long lists. */
function withJson(r: Omit<LoadedResult, 'toJSON'>): LoadedResult {
  return { ...r, toJSON: () => ({ ...r.light, holdingCounts: r.rows.holdingCounts, tradeCount: r.rows.tradeCount }) };
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

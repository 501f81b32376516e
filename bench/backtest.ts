// Backtest engine benchmark: a synthetic universe (6,000 securities × 25 years of
// weekday bars, or 500 × 5 with --quick) built in memory with a seeded generator, a 5-rule screen
// with a ranking, top 50, equal weights, 10 bps costs, the equal-weighted universe as benchmark.
// Monthly (goal ≤ 0.5 s; the median of 3 runs after a warm-up), weekly and daily rebalancing
// (one run each). Snapshots are computed on the fly from the in-memory panel (a stand-in for
// stored snapshots): their time is reported apart from the engine's. Reports, never asserts:
// times are also given as ratios to a baseline measured in the same run (one pass over all the
// bars), and as bars per second, so machines compare.
//
//   npx tsx bench/backtest.ts [--quick]
import { pathToFileURL } from 'node:url';
import { xoroshiro128plus } from 'pure-rand';
import { fromEpochDay, toEpochDay, weekday } from '../app/services/dates';
import { BacktestParamsSchema, runBacktest, type BacktestResult, type PriceSeries, type Rebalance } from '../app/services/backtest/engine';
import type { MetricSnapshot } from '../app/services/metrics/engine/types';
import type { SecurityMeta } from '../app/services/screener/engine';
import { ScreenSchema, ruleFromText } from '../app/services/screener/model';
import { FIVE_RULES } from './_screens';

const LOOKBACK = 252;

type Universe = {
  calendar: Int32Array;
  series: PriceSeries[];
  securities: SecurityMeta[];
  /** Calendar index of each series' first bar. */
  from: Int32Array;
  shares: Float64Array;
  /** P/E and ROE as known each year of the calendar, year-major: [year × securities + security]. */
  pe: Float64Array;
  roe: Float64Array;
  bars: number;
};

export function syntheticUniverse(size: number, years: number, seed: number): Universe {
  const rng = xoroshiro128plus(seed);
  const rand = () => (rng.unsafeNext() >>> 0) / 4294967296;
  // Sum of four uniforms: a cheap, roughly normal draw with unit variance.
  const normal = () => (rand() + rand() + rand() + rand() - 2) * Math.sqrt(3);
  const end = toEpochDay('2024-12-31');
  const days: number[] = [];
  for (let d = end - Math.round(years * 365.25); d <= end; d++) if (weekday(fromEpochDay(d)) % 6 !== 0) days.push(d);
  const calendar = Int32Array.from(days);
  const n = calendar.length;
  const market = Float64Array.from({ length: n }, () => 0.0003 + 0.01 * normal());
  const yearsCount = Math.ceil(n / 252) + 1;
  const series: PriceSeries[] = [];
  const securities: SecurityMeta[] = [];
  const from = new Int32Array(size);
  const shares = new Float64Array(size);
  const pe = new Float64Array(yearsCount * size);
  const roe = new Float64Array(yearsCount * size);
  let bars = 0;
  for (let k = 0; k < size; k++) {
    const start = rand() < 0.7 ? 0 : Math.floor(rand() * (n - 300));
    const delisted = rand() < 0.35;
    const stop = delisted ? start + 200 + Math.floor(rand() * (n - start - 200)) : n;
    const beta = 0.5 + rand();
    const vol = 0.008 + rand() * 0.02;
    const tri = new Float64Array(stop - start);
    let v = 5 + rand() * 95;
    for (let i = 0; i < tri.length; i++) tri[i] = v *= 1 + beta * market[start + i] + vol * normal();
    const permaticker = 100_000 + k;
    series.push({ permaticker, days: calendar.subarray(start, stop), tri, close: tri, delisted });
    securities.push({
      permaticker,
      ticker: `S${k.toString(36).toUpperCase()}`,
      name: `Synthetic ${k}`,
      exchange: k % 3 === 0 ? 'NASDAQ' : 'NYSE',
      sector: `Sector ${k % 11}`,
      industry: `Industry ${k % 60}`,
      isDelisted: delisted,
      lastPriceDate: delisted ? fromEpochDay(calendar[stop - 1]) : null,
    });
    from[k] = start;
    shares[k] = 1e6 * Math.exp(rand() * 8);
    for (let y = 0; y < yearsCount; y++) pe[y * size + k] = rand() < 0.1 ? Number.NaN : -10 + rand() * 60;
    for (let y = 0; y < yearsCount; y++) roe[y * size + k] = -0.1 + rand() * 0.4;
    bars += tri.length;
  }
  return { calendar, series, securities, from, shares, pe, roe, bars };
}

/** Metrics as of a day, from the panel: price, 12-month return, market cap, yearly P/E and ROE. */
export function snapshots(u: Universe) {
  let spent = 0;
  const at = (date: string, day: number): MetricSnapshot => {
    const started = performance.now();
    let t = 0;
    for (let lo = 0, hi = u.calendar.length - 1; lo <= hi;) {
      const mid = (lo + hi) >> 1;
      if (u.calendar[mid] <= day) {
        t = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const year = Math.floor(t / 252);
    const size = u.series.length;
    const perm = new Int32Array(size);
    const cols = {
      price: new Float64Array(size),
      ret_12m: new Float64Array(size),
      market_cap: new Float64Array(size),
      pe_ttm: new Float64Array(size),
      roe: new Float64Array(size),
    };
    let r = 0;
    for (let k = 0; k < size; k++) {
      const s = u.series[k];
      const i = t - u.from[k];
      if (i < 0 || i >= s.tri.length) continue;
      perm[r] = s.permaticker;
      cols.price[r] = s.close[i];
      cols.ret_12m[r] = i >= LOOKBACK ? s.tri[i] / s.tri[i - LOOKBACK] - 1 : Number.NaN;
      cols.market_cap[r] = u.shares[k] * s.close[i];
      cols.pe_ttm[r] = u.pe[year * size + k];
      cols.roe[r] = u.roe[year * size + k];
      r++;
    }
    const values: Record<string, Float64Array> = {};
    for (const [id, col] of Object.entries(cols)) values[id] = col.subarray(0, r);
    spent += performance.now() - started;
    return { date, day, permatickers: perm.subarray(0, r), values };
  };
  return { at, spent: () => spent };
}

function baselinePass(u: Universe): number {
  let sum = 0;
  for (const s of u.series) {
    const tri = s.tri;
    const days = s.days;
    for (let i = 0; i < tri.length; i++) sum += tri[i] + days[i];
  }
  return sum;
}

function timed<T>(fn: () => T): { ms: number; value: T } {
  const started = performance.now();
  const value = fn();
  return { ms: performance.now() - started, value };
}

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const count = (n: number) => n.toLocaleString('en-US');
const rate = (bars: number, ms: number) => `${(((bars / ms) * 1000) / 1e6).toFixed(0)} M/s`;

type Measured = { rebalance: Rebalance; ms: number; snapshotMs: number; result: BacktestResult };

export default function run(opts: { quick?: boolean } = {}) {
  const size = opts.quick ? 500 : 6_000;
  const years = opts.quick ? 5 : 25;
  const built = timed(() => syntheticUniverse(size, years, 42));
  const u = built.value;
  console.log(
    `universe: ${count(size)} securities × ${years} years, ${count(u.calendar.length)} trading days, ${count(u.bars)} bars (built in ${fmt(built.ms)})`,
  );
  const screen = ScreenSchema.parse({
    rules: FIVE_RULES.map(ruleFromText),
    ranking: [{ metric: 'ret_12m', direction: 'desc', weight: 1 }],
  });
  console.log(`screen: ${FIVE_RULES.join('; ')}; ranked by ret_12m; top 50, equal weights, 10 bps, benchmark: the equal-weighted universe`);
  const start = fromEpochDay(u.calendar[0]);
  const end = fromEpochDay(u.calendar[u.calendar.length - 1]);

  baselinePass(u);
  const base = [0, 1, 2].map(() => timed(() => baselinePass(u)).ms).sort((a, b) => a - b)[1];
  console.log(`baseline (one pass over every bar): ${base.toFixed(1)} ms, ${rate(u.bars, base)} bars`);

  const once = (rebalance: Rebalance): Measured => {
    const params = BacktestParamsSchema.parse({ start, end, rebalance, topN: 50, weighting: 'equal', commissionBps: 5, slippageBps: 5 });
    const snaps = snapshots(u);
    const t = timed(() => runBacktest({ screen, params, prices: { series: u.series }, securities: u.securities, snapshotAt: snaps.at }));
    return { rebalance, ms: t.ms, snapshotMs: snaps.spent(), result: t.value };
  };

  once('monthly'); // warm-up
  const monthly = [0, 1, 2].map(() => once('monthly')).sort((a, b) => a.ms - b.ms)[1];
  const rows = [monthly, once('weekly'), once('daily')];

  // Engine = the run minus the snapshot stand-in; bars/s = every bar of the universe per second of it.
  const table = [
    ['rebalance', 'signal dates', 'total', 'snapshots', 'engine', 'engine bars/s', 'engine ÷ baseline', 'total ÷ baseline'],
    ...rows.map((r) => {
      const engine = r.ms - r.snapshotMs;
      return [
        r.rebalance,
        count(r.result.rebalances.length),
        fmt(r.ms),
        fmt(r.snapshotMs),
        fmt(engine),
        rate(u.bars, engine),
        `${(engine / base).toFixed(1)}×`,
        `${(r.ms / base).toFixed(1)}×`,
      ];
    }),
  ];
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
  console.log();
  for (const row of table) console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
  console.log();
  console.log(
    `monthly, top 50, 5 rules: ${fmt(monthly.ms)} in total (goal ≤ 0.5 s), ${fmt(monthly.ms - monthly.snapshotMs)} in the engine (median of 3)`,
  );
  for (const r of rows) {
    const s = r.result.statistics;
    console.log(
      `${r.rebalance}: CAGR ${(s.cagr * 100).toFixed(2)} %, Sharpe ${s.sharpe?.toFixed(2)}, ${count(r.result.trades.length)} trades, delisted holdings ${r.result.delistedHoldings}`,
    );
  }
}
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) run({ quick: process.argv.includes('--quick') });

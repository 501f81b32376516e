import { fromEpochDay, toEpochDay } from '../dates';
import { Rng } from '../market/demo/random';
import { storedSnapshotAt, type StoredSnapshotColumns } from '../metrics/snapshot-columns.server';
import type { SecurityMeta } from '../screener/engine/types';
import { ScreenSchema, ruleFromText, type Screen } from '../screener/model';
import { runBacktestPair, type ComputedBacktest } from './compute.server';
import { BacktestCancelledError, BacktestParamsSchema, signalIndices, type BacktestParams, type PriceSeries } from './engine';
import type { MarketInputs } from './market-inputs.server';
import { encodePagedResult } from './stored-result';

// Warming up the compute process's JIT. A fresh Node process runs the engine's loops in V8's
// interpreter and baseline tiers; they are optimised only after a few runs' worth of calls
// (measured on the S&P 500 panel: the first ten runs took 20–70 ms each, later ones 11 ms). A
// new compute process therefore runs the whole path — the run and its survivors comparison,
// the result's encoding — on a small synthetic universe of the same shapes as the store's (the
// same typed arrays, snapshot objects and price-series views) until the hot functions are
// optimised, so that the first backtests a user asks for already run at full speed. It stops as
// soon as a real request arrives: a real run warms the engine as well as this does.

const SECURITIES = 240;
const YEARS = 6;
const FIRST_DAY = toEpochDay('2010-01-04');
/** The snapshot id of the synthetic store: never a real store's, so no cache entry is shared. */
const WARM_UP_ID = 'compute-warm-up';

/** What one warm-up round runs: the rebalancing, weighting and screen shapes users ask for most. */
export const WARM_UP_ROUNDS: { rules: string[]; ranking: string[]; params: Record<string, unknown> }[] = [
  { rules: ['ret_12m > 0'], ranking: ['ret_12m'], params: { rebalance: 'monthly', topN: 20 } },
  {
    rules: ['ret_12m > 0', 'market_cap >= 1e9'],
    ranking: ['ret_12m', 'market_cap'],
    params: { rebalance: 'monthly', topN: 50, weighting: 'market_cap' },
  },
  { rules: ['market_cap >= 5e8'], ranking: ['ret_12m'], params: { rebalance: 'weekly', topN: 30, weighting: 'inverse_volatility' } },
  { rules: ['ret_12m > 0.1'], ranking: ['market_cap'], params: { rebalance: 'quarterly', topN: 10, weighting: 'rank' } },
];
/** Passes over WARM_UP_ROUNDS: enough for V8 to optimise the engine's loops (measured: ~10 S&P-sized runs). */
export const WARM_UP_PASSES = 6;

type Synthetic = { inputs: MarketInputs; end: string };

/** Weekdays from FIRST_DAY for YEARS years (the synthetic exchange calendar). */
function weekdays(): Int32Array {
  const out: number[] = [];
  // Epoch day 4 (1970-01-05) was a Monday.
  for (let d = FIRST_DAY; out.length < YEARS * 261; d++) if ((d - 4) % 7 < 5) out.push(d);
  return Int32Array.from(out);
}

/** A seeded universe: random-walk total-return indices, some listed late, some delisted early. */
function syntheticInputs(): Synthetic {
  const rng = new Rng(20_240_601);
  const days = weekdays();
  const n = days.length;
  const perm = new Int32Array(SECURITIES);
  const start = new Int32Array(SECURITIES + 1);
  const panelDays = new Int32Array(SECURITIES * n);
  const tri = new Float64Array(SECURITIES * n);
  const close = new Float64Array(SECURITIES * n);
  const shares = new Float64Array(SECURITIES);
  const securities: SecurityMeta[] = [];
  const series: PriceSeries[] = [];
  let at = 0;
  for (let i = 0; i < SECURITIES; i++) {
    perm[i] = 100_000 + i * 7;
    start[i] = at;
    const first = rng.chance(0.15) ? rng.int(0, n >> 1) : 0;
    const delisted = rng.chance(0.1);
    const last = delisted ? rng.int(first + 300, n - 2) : n - 1;
    const drift = rng.between(-0.0002, 0.0008);
    const vol = rng.between(0.008, 0.03);
    let p = rng.between(5, 200);
    for (let d = first; d <= Math.min(last, n - 1); d++) {
      p *= Math.exp(drift + vol * rng.normal());
      panelDays[at] = days[d];
      tri[at] = p;
      close[at] = p;
      at++;
    }
    shares[i] = rng.between(2e7, 2e9);
    const a = start[i];
    series.push({
      permaticker: perm[i],
      days: panelDays.subarray(a, at),
      tri: tri.subarray(a, at),
      close: close.subarray(a, at),
      delisted,
    });
    securities.push({
      permaticker: perm[i],
      ticker: `W${i}`,
      name: `Warm-up ${i}`,
      exchange: i % 3 === 0 ? 'NASDAQ' : 'NYSE',
      sector: `Sector ${i % 11}`,
      industry: `Industry ${i % 37}`,
      isDelisted: delisted,
      lastPriceDate: delisted ? fromEpochDay(panelDays[at - 1]) : null,
    });
  }
  start[SECURITIES] = at;
  const calendar = days.subarray(260);
  const snapshotDays = new Set<number>();
  for (const rebalance of ['weekly', 'monthly', 'quarterly'] as const)
    for (const s of signalIndices(calendar, rebalance)) snapshotDays.add(calendar[s]);
  const columns = snapshotColumns(
    [...snapshotDays].sort((a, b) => a - b),
    { perm, start, days: panelDays, close, shares },
  );
  const storedAt = new Map(Array.from(columns.index.days, (d, k) => [d, k]));
  const inputs: MarketInputs = {
    prices: { series },
    exchangeDays: days,
    securities,
    snapshotId: WARM_UP_ID,
    snapshots: {
      days: columns.index.days,
      computedDays: 0,
      prepare: async () => undefined,
      at: (day) => storedSnapshotAt(columns, storedAt.get(day) as number),
    },
  };
  return { inputs, end: fromEpochDay(days[n - 1]) };
}

type Panel = { perm: Int32Array; start: Int32Array; days: Int32Array; close: Float64Array; shares: Float64Array };

/** Price, market cap and 12-month return of every listed security on each day, laid out as the stored snapshot columns are. */
function snapshotColumns(days: number[], panel: Panel): StoredSnapshotColumns {
  const perms: number[] = [];
  const price: number[] = [];
  const cap: number[] = [];
  const ret: number[] = [];
  const rowStart = [0];
  for (const day of days) {
    for (let i = 0; i < panel.perm.length; i++) {
      const a = panel.start[i];
      const b = panel.start[i + 1];
      let j = b - 1;
      while (j >= a && panel.days[j] > day) j--;
      if (j < a || panel.days[b - 1] < day) continue;
      perms.push(panel.perm[i]);
      price.push(panel.close[j]);
      cap.push(panel.close[j] * panel.shares[i]);
      ret.push(j - 252 >= a ? panel.close[j] / panel.close[j - 252] - 1 : Number.NaN);
    }
    rowStart.push(perms.length);
  }
  return {
    index: {
      days: Int32Array.from(days),
      rowStart: Int32Array.from(rowStart),
      perms: Int32Array.from(perms),
      blockRows: Int32Array.from(rowStart.slice(1), (r, k) => r - rowStart[k]),
    },
    values: { price: Float64Array.from(price), market_cap: Float64Array.from(cap), ret_12m: Float64Array.from(ret) },
  };
}

function roundOf(r: (typeof WARM_UP_ROUNDS)[number], synthetic: Synthetic): { screen: Screen; params: BacktestParams } {
  const screen = ScreenSchema.parse({
    rules: r.rules.map(ruleFromText),
    ranking: r.ranking.map((metric) => ({ metric, direction: 'desc', weight: 1 })),
  });
  const first = synthetic.inputs.exchangeDays[300];
  const params = BacktestParamsSchema.parse({ ...r.params, start: fromEpochDay(first), end: synthetic.end });
  return { screen, params };
}

/**
 * Runs the warm-up rounds, giving the event loop a turn between runs, until they are done or
 * `stop()` says a real request is waiting (a run under way is then cancelled). Returns how many
 * runs it finished; `onRun` sees each one's result (tests).
 */
export async function warmUpBacktestEngine(stop: () => boolean, onRun?: (out: ComputedBacktest) => void): Promise<number> {
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  await turn();
  if (stop()) return 0;
  const synthetic = syntheticInputs();
  let runs = 0;
  for (let pass = 0; pass < WARM_UP_PASSES; pass++)
    for (const round of WARM_UP_ROUNDS) {
      await turn();
      if (stop()) return runs;
      const { screen, params } = roundOf(round, synthetic);
      try {
        const out = await runBacktestPair(synthetic.inputs, screen, params, async () => undefined, stop);
        encodePagedResult(out.stored, WARM_UP_ID);
        onRun?.(out);
      } catch (e) {
        if (e instanceof BacktestCancelledError) return runs;
        throw e;
      }
      runs++;
    }
  return runs;
}

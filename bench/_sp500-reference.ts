// A plain per-date backtest loop over the real S&P 500 panel, written from the stated
// methodology alone and sharing no code with the engine: rebalance on the last trading day of each
// period, rank on that day's close with lookbacks counted in exchange trading days (a day without
// a bar keeps the previous close), buy the best N with a positive score in equal weights at the
// next trading day's close, value every day at the close. The panel has no dividends, so the close
// is the total-return index. tests/integration/backtest-sp500-reference.test.ts checks the engine
// against it; bench/backtest-sp500.ts times it against the app's whole backtest path.
// (Not a benchmark module itself: files starting with _ are helpers.)
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export type Panel = { dates: string[]; tickers: string[]; close: Float64Array[] /* per ticker, per date; NaN = no bar */ };

export function readPanel(file: string): Panel {
  const lines = gunzipSync(readFileSync(file)).toString('utf8').trim().split('\n');
  const header = lines[0].split(',');
  const at = (name: string) => header.indexOf(name);
  const [iDate, iName] = [at('date'), at('Name')];
  const rows = lines.slice(1).map((l) => l.split(','));
  const dates = [...new Set(rows.map((r) => r[iDate]))].sort();
  const tickers = [...new Set(rows.map((r) => r[iName]))].sort();
  const dateIndex = new Map(dates.map((d, i) => [d, i]));
  const tickerIndex = new Map(tickers.map((t, i) => [t, i]));
  const close = tickers.map(() => new Float64Array(dates.length).fill(Number.NaN));
  const num = (r: string[], name: string) => (r[at(name)] === '' ? null : Number(r[at(name)]));
  for (const r of rows) {
    // Unusable rows are skipped, as the import with --skip-bad-rows does: no close, a price that
    // is not positive, a high below the low, a negative volume.
    const [o, h, l, c, v] = ['open', 'high', 'low', 'close', 'volume'].map((name) => num(r, name));
    if (c === null || [o, h, l, c].some((x) => x !== null && x <= 0)) continue;
    if ((h !== null && l !== null && h < l) || (v !== null && v < 0)) continue;
    close[tickerIndex.get(r[iName])!][dateIndex.get(r[iDate])!] = c;
  }
  return { dates, tickers, close };
}

/** Each ticker's close on every exchange day from its first bar on, the last close carried over gaps. */
export function forwardFilled(p: Panel): Float64Array[] {
  return p.close.map((c) => {
    const out = new Float64Array(c.length).fill(Number.NaN);
    let last = Number.NaN;
    for (let t = 0; t < c.length; t++) {
      if (!Number.isNaN(c[t])) last = c[t];
      out[t] = last;
    }
    return out;
  });
}

function periodOf(date: string, rebalance: 'weekly' | 'monthly'): string {
  if (rebalance === 'monthly') return date.slice(0, 7);
  // Weeks run Monday to Sunday: the Monday on or before the date names the week.
  const d = new Date(`${date}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(d.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

export type Reference = { picks: { signal: string; names: string[] }[]; equity: number[] };

export function referenceBacktest(
  p: Panel,
  opts: { rebalance: 'weekly' | 'monthly'; lookback: number; top: number; start: string },
): Reference {
  const px = forwardFilled(p);
  const firstBar = p.close.map((c) => c.findIndex((v) => !Number.isNaN(v)));
  const from = p.dates.findIndex((d) => d >= opts.start);
  const n = p.dates.length;
  let cash = 1000;
  let units = new Map<number, number>();
  const equity: number[] = [];
  const picks: Reference['picks'] = [];
  let pending: number[] | null = null;
  for (let t = from; t < n; t++) {
    if (pending) {
      const value = cash + [...units].reduce((s, [k, u]) => s + u * px[k][t], 0);
      units = new Map(pending.map((k) => [k, value / pending!.length / px[k][t]]));
      cash = pending.length === 0 ? value : 0;
      pending = null;
    }
    equity.push(cash + [...units].reduce((s, [k, u]) => s + u * px[k][t], 0));
    const periodEnd = t + 1 < n && periodOf(p.dates[t], opts.rebalance) !== periodOf(p.dates[t + 1], opts.rebalance);
    if (!periodEnd) continue;
    const scored: { k: number; score: number }[] = [];
    for (let k = 0; k < p.tickers.length; k++) {
      if (firstBar[k] < 0 || t - opts.lookback < firstBar[k]) continue;
      const score = px[k][t] / px[k][t - opts.lookback] - 1;
      if (score > 0) scored.push({ k, score });
    }
    scored.sort((a, b) => b.score - a.score);
    pending = scored.slice(0, opts.top).map((s) => s.k);
    picks.push({ signal: p.dates[t], names: pending.map((k) => p.tickers[k]).sort() });
  }
  return { picks, equity };
}

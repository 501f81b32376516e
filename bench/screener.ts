// Screener engine benchmark: a 10-rule screen with a composite ranking and a page of 50
// on a 6,000-security snapshot, p50/p95 of the server-side work, and the same as a ratio to a
// baseline measured in the same run (one plain pass over one metric column). A synthetic
// snapshot is built in memory, so the number is the engine's, not the disk's.
//
//   npx tsx bench/screener.ts [--quick]
import { pathToFileURL } from 'node:url';
import { METRIC_IDS } from '../app/services/metrics/catalogue';
import type { MetricSnapshot } from '../app/services/metrics/engine/types';
import { mulberry32 } from '../app/services/metrics/testing/synthetic-universe';
import { compileScreen, explainSecurity, prepareUniverse, screenPage, type SecurityMeta } from '../app/services/screener/engine';
import { ScreenSchema, ruleFromText } from '../app/services/screener/model';

const SECTORS = [
  'Technology',
  'Energy',
  'Financials',
  'Health Care',
  'Industrials',
  'Utilities',
  'Materials',
  'Consumer Staples',
  'Consumer Discretionary',
  'Real Estate',
  'Communication',
];

function syntheticSnapshot(size: number, seed: number): { snapshot: MetricSnapshot; securities: SecurityMeta[] } {
  const rand = mulberry32(seed);
  const permatickers = Int32Array.from({ length: size }, (_, i) => 100_000 + i);
  const values: Record<string, Float64Array> = {};
  for (const id of METRIC_IDS) {
    const col = new Float64Array(size);
    for (let i = 0; i < size; i++) col[i] = rand() < 0.08 ? NaN : (rand() - 0.3) * 100;
    values[id] = col;
  }
  for (let i = 0; i < size; i++) values.market_cap[i] = Math.exp(17 + rand() * 9);
  const securities = Array.from(permatickers, (p, i) => ({
    permaticker: p,
    ticker: `S${i.toString(36).toUpperCase()}`,
    name: `Synthetic ${i}`,
    exchange: i % 3 === 0 ? 'NASDAQ' : 'NYSE',
    sector: SECTORS[i % SECTORS.length],
    industry: `${SECTORS[i % SECTORS.length]} ${i % 5}`,
    isDelisted: false,
    lastPriceDate: null,
  }));
  return { snapshot: { date: '2024-12-31', day: 20088, permatickers, values }, securities };
}

export const TEN_RULES = [
  'market_cap > 100000000',
  'pe_ttm between 0 and 40',
  'roe > -10',
  'price > 0.5 * sma200',
  '(revenue_ttm - cost_of_revenue_ttm) / total_assets > -5',
  'ret_12m_ex_1m in top 80% of sector',
  'rsi14 < 60',
  'sector not in ["Utilities"]',
  'debt_to_equity < 50',
  'volatility_1y != 0',
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function measure(iterations: number, fn: () => unknown): { p50: number; p95: number } {
  for (let i = 0; i < Math.min(20, iterations); i++) fn();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

export default function run(opts: { quick?: boolean } = {}) {
  const size = opts.quick ? 1_000 : 6_000;
  const iterations = opts.quick ? 50 : 300;
  const { snapshot, securities } = syntheticSnapshot(size, 42);
  const screen = ScreenSchema.parse({
    rules: TEN_RULES.map(ruleFromText),
    ranking: [
      { metric: 'earnings_yield', direction: 'desc', weight: 2 },
      { metric: 'ret_6m', direction: 'desc', weight: 1 },
    ],
    columns: ['price', 'market_cap'],
  });

  // Baseline: one plain pass over one column (what any filter must at least cost).
  const column = snapshot.values.pe_ttm;
  let sink = 0;
  const baseline = measure(iterations * 5, () => {
    let n = 0;
    for (let i = 0; i < column.length; i++) if (column[i] < 15) n++;
    sink += n;
  });

  const prepared = prepareUniverse(snapshot, securities);
  let matched = 0;
  const full = measure(iterations, () => {
    const page = screenPage(compileScreen(screen), prepareUniverse(snapshot, securities));
    matched = page.count;
  });
  const compiled = compileScreen(screen);
  const evalOnly = measure(iterations, () => screenPage(compiled, prepared));
  const explain = measure(iterations, () => explainSecurity(compiled, prepared, 100_123));

  const ms = (x: number) => `${x.toFixed(3)} ms`;
  const ratio = (x: number) => `${(x / baseline.p50).toFixed(1)}× baseline`;
  console.log(
    `universe ${size} securities, ${TEN_RULES.length} rules, composite rank of 2 metrics, page of 50; ${matched} match (${iterations} runs)`,
  );
  console.log(`baseline (one pass over one column):      p50 ${ms(baseline.p50)}  p95 ${ms(baseline.p95)}`);
  console.log(
    `parse + join + evaluate + rank + page:    p50 ${ms(full.p50)}  p95 ${ms(full.p95)}   (${ratio(full.p50)} p50, ${ratio(full.p95)} p95)`,
  );
  console.log(
    `evaluate + rank + page (prepared, compiled): p50 ${ms(evalOnly.p50)}  p95 ${ms(evalOnly.p95)}   (${ratio(evalOnly.p50)} p50)`,
  );
  console.log(`explain one security:                     p50 ${ms(explain.p50)}  p95 ${ms(explain.p95)}`);
  if (sink < 0) console.log(sink);
  return { size, matched, baseline, full, evalOnly, explain };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) run({ quick: process.argv.includes('--quick') });

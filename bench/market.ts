// Market store benchmark: demo universe generation + load, snapshot id, price series and company
// search queries — each as a number and as a ratio to a plain DuckDB scan of the prices table
// (`SELECT sum(close) FROM prices`) measured in the same run on the same file.
//
//   npx tsx bench/market.ts [--companies 6000] [--years 25] [--seed 1] [--out FILE] [--quick]
//
// The default size is the benchmark universe (6,000 companies x 25 years, ~35M price rows).
// --out keeps the generated store (bench/metrics.ts --market-db can reuse it); --reuse with --out
// skips generation and load and times the queries on that existing store.
// bench/run.ts imports the default export.

import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { searchCompanies } from '../app/services/company/companies.server';
import { loadDemoUniverse } from '../app/services/imports/load-demo.server';
import { BENCHMARK_DEMO_OPTIONS, createDemoUniverse, demoCompanies } from '../app/services/market/demo/universe';
import { priceSeries } from '../app/services/company/prices.server';
import { closeMarketReader, openMarketReader } from '../app/services/market/store/open-store.server';
import { computeSnapshotId } from '../app/services/market/store/snapshot-id.server';

export type MarketBenchOptions = {
  quick?: boolean;
  companies?: number;
  years?: number;
  seed?: number;
  out?: string;
  /** With `out`: time only the queries on that existing store. */
  reuse?: boolean;
  log?: (line: string) => void;
};
export type MarketBenchResult = {
  universe: string;
  rows: { prices: number; facts: number };
  baselineMs: number;
  results: { name: string; ms: number; ratio: number }[];
};

const QUICK = { companies: 300, years: 5 };

async function time<T>(work: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const out = await work();
  return [performance.now() - t, out];
}

/** Median of `runs` timings after one warm-up run. */
async function median(runs: number, work: (i: number) => Promise<unknown>): Promise<number> {
  await work(-1);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await time(() => work(i)))[0]);
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export default async function run(opts: MarketBenchOptions = {}): Promise<MarketBenchResult> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const companies = opts.companies ?? (opts.quick ? QUICK.companies : BENCHMARK_DEMO_OPTIONS.companies);
  const years = opts.years ?? (opts.quick ? QUICK.years : BENCHMARK_DEMO_OPTIONS.years);
  const seed = opts.seed ?? BENCHMARK_DEMO_OPTIONS.seed;
  const dir = opts.out ? null : mkdtempSync(path.join(tmpdir(), 'quarry-bench-market-'));
  const file = opts.out ? path.resolve(opts.out) : path.join(dir as string, 'market.duckdb');
  const universe = `demo ${companies} companies x ${years} years (seed ${seed})`;
  try {
    log(`Universe: ${universe} -> ${file}`);
    const timings: { name: string; ms: number }[] = [];
    let rows = { prices: 0, facts: 0 };
    if (opts.reuse && existsSync(file)) {
      log('Reusing the existing store: generation and load not timed.');
    } else {
      const cpuBefore = process.cpuUsage();
      const [generateMs] = await time(async () => {
        let n = 0;
        for (const c of demoCompanies(createDemoUniverse({ companies, years, seed }))) n += c.prices.day.length + c.facts.rows;
        return n;
      });
      const [loadMs, loaded] = await time(() => loadDemoUniverse(file, { companies, years, seed }));
      const cpu = process.cpuUsage(cpuBefore);
      rows = { prices: loaded.prices, facts: loaded.facts };
      timings.push({ name: 'generate only (no store)', ms: generateMs }, { name: 'generate + load into DuckDB', ms: loadMs });
      log(
        `Rows: ${loaded.prices.toLocaleString('en-US')} prices, ${loaded.facts.toLocaleString('en-US')} facts, ${loaded.actions.toLocaleString('en-US')} actions; ` +
          `file ${(statSync(file).size / 1e6).toFixed(0)} MB; process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s for generate + load`,
      );
    }

    const reader = await openMarketReader(file);
    const connection = await reader.connect();
    try {
      const baselineMs = await median(5, () => reader.all(`SELECT sum(close) FROM prices`));
      const [{ n }] = await reader.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM securities`);
      const permaticker = (i: number) => 900_001 + ((Math.abs(i) * 7919) % n);
      const results = [
        ...timings,
        { name: 'snapshot id (content hash)', ms: await median(3, () => computeSnapshotId(connection)) },
        { name: 'price series, one security, all history', ms: await median(20, (i) => priceSeries(permaticker(i), {}, { file })) },
        {
          name: 'price series, one security, one year',
          ms: await median(20, (i) => priceSeries(permaticker(i), { from: '2025-01-01', to: '2025-12-31' }, { file })),
        },
        { name: 'company search ("an")', ms: await median(20, () => searchCompanies('an', 20, { file })) },
      ].map((r) => ({ ...r, ratio: r.ms / baselineMs }));

      log(`Baseline: SELECT sum(close) FROM prices = ${baselineMs.toFixed(1)} ms (median of 5)`);
      const width = Math.max(...results.map((r) => r.name.length));
      for (const r of results)
        log(`  ${r.name.padEnd(width)}  ${r.ms.toFixed(1).padStart(10)} ms  ${r.ratio.toFixed(1).padStart(9)} x baseline`);
      return { universe, rows, baselineMs, results };
    } finally {
      connection.closeSync();
      reader.close();
    }
  } finally {
    closeMarketReader();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

function parseCli(argv: string[]): MarketBenchOptions {
  const opts: MarketBenchOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--quick' || flag === '--reuse') {
      opts[flag === '--quick' ? 'quick' : 'reuse'] = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--out') opts.out = value;
    else if (flag === '--companies' || flag === '--years' || flag === '--seed') {
      if (!/^\d+$/.test(value)) throw new Error(`${flag} must be a whole number, got ${value}`);
      opts[flag.slice(2) as 'companies' | 'years' | 'seed'] = Number(value);
    } else throw new Error(`Unknown option ${flag}. Use --companies N --years Y --seed S --out FILE [--reuse] --quick.`);
  }
  return opts;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await run(parseCli(process.argv.slice(2)));
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  }
}

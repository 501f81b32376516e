// Metrics benchmark: snapshot build, all metrics for one date, series queries — each as a number
// and as a ratio to a plain DuckDB scan of the prices table measured in the same run.
//
//   npx tsx bench/metrics.ts [--securities 1500] [--years 20] [--seed 1] [--market-db FILE]
//
// With --market-db the run works on a temporary copy of that store (e.g. the 6,000 × 25-year
// demo universe); otherwise it writes a synthetic universe first. bench/run.ts imports `run`.

import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { toEpochDay } from '../app/services/dates';
import { closeMarketReader, marketReader } from '../app/services/market/store/open-store.server';
import { UniverseEvaluator } from '../app/services/metrics/engine/evaluate';
import { buildSnapshots, listSnapshotDates, loadSnapshot, metricSeries } from '../app/services/metrics/snapshots.server';
import { listSecurities, loadBlock, loadMarketReturns } from '../app/services/metrics/store-loader.server';
import { writeFixtureStore } from '../app/services/metrics/testing/fixture-store.server';
import { syntheticUniverse } from '../app/services/metrics/testing/synthetic-universe';

export type MetricsBenchOptions = {
  securities?: number;
  years?: number;
  seed?: number;
  marketDb?: string;
  log?: (line: string) => void;
};
export type MetricsBenchResult = {
  name: string;
  universe: string;
  baselineMs: number;
  results: { name: string; ms: number; ratio: number }[];
};

// Wall time is what a user waits; CPU time of this process (DuckDB's threads included) is also
// recorded because on a busy machine it is the steadier of the two.
let lastCpuMs = 0;
async function time<T>(work: () => Promise<T>): Promise<[number, T]> {
  const c = process.cpuUsage();
  const t = performance.now();
  const out = await work();
  const used = process.cpuUsage(c);
  lastCpuMs = (used.user + used.system) / 1000;
  return [performance.now() - t, out];
}

export default async function run(opts: MetricsBenchOptions = {}): Promise<MetricsBenchResult> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-metrics-'));
  const file = path.join(dir, 'market.duckdb');
  try {
    let universe: string;
    if (opts.marketDb) {
      if (!existsSync(opts.marketDb)) throw new Error(`No such market file: ${opts.marketDb}`);
      copyFileSync(opts.marketDb, file);
      universe = `copy of ${opts.marketDb}`;
    } else {
      const n = opts.securities ?? 1500;
      const years = opts.years ?? 20;
      const [genMs] = await time(async () => {
        // Written in chunks so the generator never holds the whole universe.
        const parts: string[] = [];
        for (let first = 0; first < n; first += 250) {
          const chunk = syntheticUniverse({
            securities: Math.min(250, n - first),
            years,
            seed: (opts.seed ?? 1) * 1000 + first,
            firstPermaticker: 100_000 + first,
          });
          const partFile = path.join(dir, `part-${first}.duckdb`);
          await writeFixtureStore(partFile, chunk);
          parts.push(partFile);
        }
        const instance = await DuckDBInstance.create(file);
        const conn = await instance.connect();
        for (const [i, part] of parts.entries()) {
          await conn.run(`ATTACH '${part}' AS p${i} (READ_ONLY)`);
          for (const t of ['securities', 'prices', 'corporate_actions', 'facts']) {
            await conn.run(i === 0 ? `CREATE TABLE ${t} AS SELECT * FROM p0.${t}` : `INSERT INTO ${t} SELECT * FROM p${i}.${t}`);
          }
          await conn.run(`DETACH p${i}`);
          rmSync(part, { force: true });
        }
        conn.closeSync();
        instance.closeSync();
      });
      universe = `synthetic ${n} securities × ${years} years`;
      log(`generated ${universe} in ${(genMs / 1000).toFixed(1)} s`);
    }

    // Baseline: one plain scan of the prices table.
    const scan = async () => {
      const instance = await DuckDBInstance.create(file, {
        access_mode: 'READ_ONLY',
      });
      const conn = await instance.connect();
      const [ms, rows] = await time(async () =>
        (await conn.runAndReadAll('SELECT count(*)::BIGINT, sum(close), sum(volume), sum(tri) FROM prices')).getRows(),
      );
      conn.closeSync();
      instance.closeSync();
      return [ms, Number(rows[0][0])] as const;
    };
    await scan();
    const [baselineMs, priceRows] = await scan();
    log(`baseline: scan of ${priceRows.toLocaleString('en-US')} price rows: ${baselineMs.toFixed(1)} ms`);

    const results: { name: string; ms: number; cpuMs: number; ratio: number }[] = [];
    const record = (name: string, ms: number) => {
      results.push({ name, ms, cpuMs: lastCpuMs, ratio: ms / baselineMs });
      log(
        `${name.padEnd(62)} ${ms.toFixed(1).padStart(10)} ms  (cpu ${lastCpuMs.toFixed(0).padStart(7)} ms)  ${(ms / baselineMs).toFixed(1).padStart(8)} × scan`,
      );
    };

    const [buildMs] = await time(() => buildSnapshots({ marketDb: file }));
    const dates = await listSnapshotDates('month_end', { marketDb: file });
    record(`build snapshots (${dates.length} month-ends + latest)`, buildMs);

    const latest = await loadSnapshot('latest', { marketDb: file });
    record(
      `load stored snapshot, all metrics (${latest.permatickers.length} securities)`,
      (await time(() => loadSnapshot(dates[dates.length - 2], { marketDb: file })))[0],
    );
    record(
      'load stored snapshot, 5 metrics',
      (
        await time(() =>
          loadSnapshot(dates[dates.length - 3], {
            marketDb: file,
            metrics: ['pe_ttm', 'roe', 'ret_12m', 'market_cap', 'sma200'],
          }),
        )
      )[0],
    );

    // One date between month-ends: engine only (inputs already in memory), then end to end.
    const mid = latest.day - 10;
    const reader = await marketReader(file);
    const conn = await reader.connect();
    const market = await loadMarketReturns(conn);
    const listed = (await listSecurities(conn)).filter(
      (s) => s.firstDay !== null && s.firstDay <= mid && !(s.isDelisted && (s.lastDay ?? 0) < mid),
    );
    const [loadMs, inputs] = await time(() =>
      loadBlock(conn, listed, {
        toDay: mid,
        priceFromDay: mid - 2300,
        factFromDay: mid - 9 * 366,
      }),
    );
    conn.closeSync();
    record(`load engine inputs for one date (${listed.length} securities)`, loadMs);
    const evaluator = new UniverseEvaluator({ securities: inputs, market });
    const [evalMs, snap] = await time(async () => evaluator.evaluate(mid));
    record(`engine: all ${Object.keys(snap.values).length} metrics × ${snap.permatickers.length} securities, one date`, evalMs);
    const [nextMs] = await time(async () => evaluator.evaluate(mid + 1));
    record('engine: the next day, incremental', nextMs);
    record(
      'loadSnapshot on demand (date between month-ends)',
      (await time(() => loadSnapshot(new Date((mid - 1) * 86_400_000).toISOString().slice(0, 10), { marketDb: file })))[0],
    );

    const one = listed[Math.floor(listed.length / 2)].permaticker;
    record('series: revenue_ttm, one security, full history', (await time(() => metricSeries(one, 'revenue_ttm', { marketDb: file })))[0]);
    record(
      'series: pe_ttm daily, one security, 5 years',
      (
        await time(() =>
          metricSeries(one, 'pe_ttm', {
            marketDb: file,
            from: new Date((latest.day - 1826) * 86_400_000).toISOString().slice(0, 10),
          }),
        )
      )[0],
    );
    void toEpochDay;
    return { name: 'metrics', universe, baselineMs, results };
  } finally {
    closeMarketReader();
    rmSync(dir, { recursive: true, force: true });
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  run({
    securities: num(arg('securities')),
    years: num(arg('years')),
    seed: num(arg('seed')),
    marketDb: arg('market-db'),
  }).catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}

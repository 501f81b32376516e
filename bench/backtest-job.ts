// End-to-end backtest benchmark: a backtest asked for through the service the API calls
// (createBacktest), run by a job worker (its compute process reading the DuckDB store and its
// caches), until its result is stored — monthly (median of 5 after a first run, which reads its
// metrics' snapshot columns), weekly and daily. Each time is also given as a ratio to a plain DuckDB scan of the prices table measured in
// the same run. Reports, never asserts.
//
//   BENCH_MARKET_DB=/tmp/big/market.duckdb npx tsx bench/backtest-job.ts   # e.g. the 6,000 × 25 demo
//   npx tsx bench/backtest-job.ts [--quick]                                # generates a demo universe
//
// Without BENCH_MARKET_DB it generates a demo universe (300 × 6 years with --quick, else the
// default 1,500 × 20) in a temp folder. The store is only read; caches go to a temp DATA_DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { backtestStart, FIVE_RULES } from './_screens';

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function scanMs(file: string): Promise<number> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  const times: number[] = [];
  for (let i = 0; i < 4; i++) {
    const t = performance.now();
    await conn.runAndReadAll('SELECT count(*)::BIGINT, sum(close), sum(tri) FROM prices');
    times.push(performance.now() - t);
  }
  conn.closeSync();
  instance.closeSync();
  return median(times.slice(1));
}

export default async function run(opts: { quick?: boolean } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-backtest-job-'));
  const saved = { ...process.env };
  let marketDb = process.env.BENCH_MARKET_DB;
  // The app's own modules read the environment when first used: set it before importing them.
  process.env.DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  process.env.NODE_ENV = 'production';
  process.env.JOB_LEASE_MS = '30000';
  try {
    if (!marketDb) {
      const { loadDemoUniverse } = await import('../app/services/imports/load-demo.server');
      const { silentProgress } = await import('../app/services/imports/progress.server');
      const { afterMarketDataChange } = await import('../app/services/imports/post-import.server');
      const size = opts.quick ? { companies: 300, years: 6, seed: 3 } : { companies: 1500, years: 20, seed: 1 };
      marketDb = path.join(dir, 'market.duckdb');
      const t = performance.now();
      await loadDemoUniverse(marketDb, size, silentProgress, {
        beforePublish: (work) => afterMarketDataChange(work, silentProgress),
      });
      console.log(`generated a demo universe of ${size.companies} companies × ${size.years} years in ${fmt(performance.now() - t)}`);
    }
    process.env.MARKET_DB = marketDb;
    const { resetConfigForTests } = await import('../app/services/config.server');
    resetConfigForTests();
    const { getDb, closeDb } = await import('../app/services/db/db.server');
    const { createUser } = await import('../app/services/auth/users.server');
    const { createBacktest, getBacktest } = await import('../app/services/backtest/backtests.server');
    const { marketDataRange } = await import('../app/services/backtest/market-inputs.server');
    const { APP_JOBS } = await import('../app/services/app-jobs.server');
    const { startJobWorker, closeJobQueue } = await import('../app/services/jobs/queue.server');
    const { ScreenSchema, ruleFromText } = await import('../app/services/screener/model');
    await getDb();
    const user = await createUser({ email: 'bench@example.com', full_name: 'Bench Mark', password: 'correct horse 1', access: true });
    const { computeProcessReady } = await import('../app/services/backtest/compute-process.server');
    const readyFrom = performance.now();
    const worker = startJobWorker(APP_JOBS);
    // As after the app starts: its compute process builds the cache files of what every run reads
    // (the price panel, the snapshot index, the market caps) before the first backtest is asked
    // for; the first run then reads them, and its metrics' columns.
    await computeProcessReady();
    const ready = performance.now() - readyFrom;
    const baseline = await scanMs(marketDb);
    const range = await marketDataRange();
    console.log(`store: ${marketDb} (${range.first} to ${range.last})`);
    console.log(`baseline: plain DuckDB scan of the prices table ${fmt(baseline)}`);
    console.log(
      `the compute process was ready (the cache files of the price panel, snapshot index and market caps built) in ${fmt(ready)}`,
    );
    const screen = ScreenSchema.parse({
      rules: FIVE_RULES.map(ruleFromText),
      ranking: [{ metric: 'ret_12m', direction: 'desc', weight: 1 }],
    });
    const years = opts.quick ? 5 : 25;
    const start = backtestStart(range, years);

    const once = async (rebalance: string): Promise<{ ms: number; status: string; detail: string }> => {
      const t = performance.now();
      let view;
      try {
        view = await createBacktest(user.id, {
          screen,
          params: { start, end: range.last, rebalance, topN: 50, commissionBps: 5, slippageBps: 5 },
        });
      } catch (e) {
        return { ms: performance.now() - t, status: 'refused', detail: e instanceof Error ? e.message : String(e) };
      }
      for (;;) {
        const b = await getBacktest(user.id, view.id);
        if (b.status === 'succeeded' || b.status === 'failed' || b.status === 'cancelled')
          return { ms: performance.now() - t, status: b.status, detail: b.error ?? `${b.summary?.totalReturn ?? ''}` };
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    console.log(`screen: ${FIVE_RULES.join('; ')}; ranked by ret_12m; top 50, equal weights, 10 bps; ${start} to ${range.last}`);
    const rows: [string, string, string, string][] = [];
    const cold = await once('monthly');
    rows.push(['monthly, first run (its metrics read)', fmt(cold.ms), `${(cold.ms / baseline).toFixed(1)}×`, cold.status]);
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) warm.push((await once('monthly')).ms);
    const m = median(warm);
    rows.push(['monthly, median of 5', fmt(m), `${(m / baseline).toFixed(1)}×`, 'succeeded']);
    for (const rebalance of ['weekly', 'daily']) {
      const r = await once(rebalance);
      rows.push([
        rebalance,
        fmt(r.ms),
        `${(r.ms / baseline).toFixed(1)}×`,
        r.status === 'succeeded' ? r.status : `${r.status}: ${r.detail}`,
      ]);
    }
    const widths = [0, 1, 2].map((c) => Math.max(...rows.map((row) => row[c].length), 10));
    console.log();
    console.log(
      ['backtest (create → stored result)'.padEnd(widths[0]), 'time'.padStart(widths[1]), '÷ scan'.padStart(widths[2]), 'status'].join(
        '  ',
      ),
    );
    for (const row of rows)
      console.log([row[0].padEnd(widths[0]), row[1].padStart(widths[1]), row[2].padStart(widths[2]), row[3]].join('  '));
    await worker.stop();
    await closeJobQueue();
    await closeDb();
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    rmSync(dir, { recursive: true, force: true });
  }
}
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run({ quick: process.argv.includes('--quick') });

// The whole backtest path on real prices against a plain reference loop: the S&P 500 daily panel
// 2013–2018 (../shared/data/prices) is imported with the prices importer, then a monthly top-20
// backtest by 12-month return is asked for through createBacktest (what POST /api/v1/backtests
// calls) and run by a job worker and its compute process until the result is stored, then over
// HTTP through the built app (when there is one), as an API client asks for it — and the
// same backtest is computed by a plain per-date loop: bench/_sp500-reference.ts (TypeScript) and,
// when python3 with pandas is installed, bench/_sp500_reference.py (pandas). Prints each time and
// how many times faster the app's path is; the totals returned by all three must agree.
// Reports, never asserts.
//
//   npx tsx bench/backtest-sp500.ts [--quick]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtAppExists, startBuiltApp } from './_app-server';
import { forwardFilled, readPanel, referenceBacktest } from './_sp500-reference';

const here = path.dirname(fileURLToPath(import.meta.url));
const PANEL = path.resolve(here, '../../shared/data/prices/sp500_stocks_daily_2013-2018.csv.gz');
const PARAMS = { start: '2013-02-08', end: '2018-02-07', rebalance: 'monthly', topN: 20, lookback: 252 } as const;

/** POSTs over HTTP before the timed ones. */
const HTTP_WARM_UP = 20;

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The backtest through the app's HTTP API on the store in DATA_DIR / MARKET_DB: median times polling and with the POST's wait. */
async function overHttp(token: string, screen: unknown, rounds: number): Promise<{ polled: number; waited: number }> {
  const app = await startBuiltApp({ DATA_DIR: process.env.DATA_DIR ?? '', MARKET_DB: process.env.MARKET_DB ?? '' });
  try {
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const body = JSON.stringify({
      screen,
      params: { start: PARAMS.start, end: PARAMS.end, rebalance: PARAMS.rebalance, topN: PARAMS.topN, initialCapital: 1000 },
    });
    const once = async (prefer: 'respond-async' | null) => {
      const started = performance.now();
      const posted = await fetch(`${app.base}/api/v1/backtests`, {
        method: 'POST',
        headers: prefer ? { ...headers, Prefer: prefer } : headers,
        body,
      });
      let b = (await posted.json()) as { id: string; status: string; error?: string };
      if (!posted.ok) throw new Error(`POST /api/v1/backtests: ${posted.status} ${JSON.stringify(b)}`);
      while (b.status === 'queued' || b.status === 'running') {
        await new Promise((r) => setTimeout(r, 2));
        b = (await (await fetch(`${app.base}/api/v1/backtests/${b.id}`, { headers })).json()) as typeof b;
      }
      if (b.status !== 'succeeded') throw new Error(`backtest ${b.status}: ${b.error ?? ''}`);
      const ms = performance.now() - started;
      await fetch(`${app.base}/api/v1/backtests/${b.id}`, { method: 'DELETE', headers });
      return ms;
    };
    // The app's first backtest reads its caches; then as many as an app in use has served, so its
    // code is as optimised as it then is (after three warm-up POSTs, the median of nine read 20.4 ms
    // on the build that read 15.7 ms after twenty).
    for (let i = 0; i < HTTP_WARM_UP; i++) await once(null);
    const polled: number[] = [];
    const waited: number[] = [];
    for (let i = 0; i < rounds; i++) {
      polled.push(await once('respond-async'));
      waited.push(await once(null));
    }
    return { polled: median(polled), waited: median(waited) };
  } finally {
    await app.stop();
  }
}

export default async function run(opts: { quick?: boolean } = {}) {
  if (!existsSync(PANEL)) {
    console.log(`skipped: ${PANEL} is absent`);
    return;
  }
  const rounds = opts.quick ? 3 : 9;
  // Requests are cheap next to the loops: more of them, for a median that holds from run to run.
  const httpRounds = opts.quick ? 3 : 30;
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-sp500-'));
  const saved = { ...process.env };
  process.env.DATA_DIR = dir;
  process.env.MARKET_DB = path.join(dir, 'market.duckdb');
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  process.env.NODE_ENV = 'production';
  try {
    const { resetConfigForTests } = await import('../app/services/config.server');
    resetConfigForTests();
    const { withMarketWriter } = await import('../app/services/market/store/writer.server');
    const { importers } = await import('../app/services/market/importers/index.server');
    const { silentProgress } = await import('../app/services/imports/progress.server');
    const { afterMarketDataChange } = await import('../app/services/imports/post-import.server');
    const file = process.env.MARKET_DB;
    const { getDb, closeDb } = await import('../app/services/db/db.server');
    const { APP_JOBS } = await import('../app/services/app-jobs.server');
    const { startJobWorker, closeJobQueue } = await import('../app/services/jobs/queue.server');
    await getDb();
    // As in the app, the job worker and its compute process are up before anyone asks for a
    // backtest (here, while the panel is imported): what a user's first backtest meets.
    const worker = startJobWorker(APP_JOBS);
    let t = performance.now();
    await withMarketWriter(file, {}, (writer) =>
      importers.prices.run([PANEL, '--skip-bad-rows'], { writer, progress: silentProgress, env: {} }),
    );
    await afterMarketDataChange(file, silentProgress);
    console.log(`imported the S&P 500 panel with its snapshots in ${fmt(performance.now() - t)}`);

    const { createUser } = await import('../app/services/auth/users.server');
    const { createBacktest, getBacktest } = await import('../app/services/backtest/backtests.server');
    const { ScreenSchema, ruleFromText } = await import('../app/services/screener/model');
    const user = await createUser({ email: 'bench-sp500@example.com', full_name: 'Bench Mark', password: 'correct horse 1', access: true });
    const screen = ScreenSchema.parse({
      rules: [ruleFromText('ret_12m > 0')],
      ranking: [{ metric: 'ret_12m', direction: 'desc', weight: 1 }],
    });
    const once = async () => {
      const started = performance.now();
      const view = await createBacktest(user.id, {
        screen,
        params: { start: PARAMS.start, end: PARAMS.end, rebalance: PARAMS.rebalance, topN: PARAMS.topN, initialCapital: 1000 },
      });
      let done = view.status === 'succeeded' ? view : null;
      while (!done) {
        const b = await getBacktest(user.id, view.id);
        if (b.status === 'failed' || b.status === 'cancelled') throw new Error(`backtest ${b.status}: ${b.error ?? ''}`);
        if (b.status === 'succeeded') done = b;
        else await new Promise((r) => setTimeout(r, 2));
      }
      return { ms: performance.now() - started, totalReturn: done.summary?.totalReturn ?? Number.NaN };
    };
    const cold = await once();
    const warm: number[] = [];
    let appReturn = cold.totalReturn;
    for (let i = 0; i < rounds; i++) {
      const r = await once();
      warm.push(r.ms);
      appReturn = r.totalReturn;
    }
    const app = median(warm);
    // The compute process's part alone (reading the caches, both runs, no job or database).
    const { computeBacktest } = await import('../app/services/backtest/compute.server');
    const { BacktestParamsSchema } = await import('../app/services/backtest/engine');
    const params = BacktestParamsSchema.parse({ start: PARAMS.start, end: PARAMS.end, rebalance: PARAMS.rebalance, topN: PARAMS.topN });
    const computeTimes: number[] = [];
    for (let i = 0; i < rounds + 1; i++) {
      t = performance.now();
      await computeBacktest(
        screen,
        params,
        async () => undefined,
        () => false,
      );
      if (i > 0) computeTimes.push(performance.now() - t);
    }
    await worker.stop();
    await closeJobQueue();
    // Through HTTP, as an API client does it: the built app started on this store, the same
    // backtest POSTed to /api/v1/backtests, which answers with the result (the POST's default
    // wait), and with `Prefer: respond-async` and its GET polled every 2 ms until it holds it.
    const { issueUserToken } = await import('../app/services/auth/tokens.server');
    const token = (await issueUserToken(user.id)).access_token;
    await closeDb();
    const http = builtAppExists() ? await overHttp(token, screen, httpRounds) : null;

    const panel = readPanel(PANEL);
    const tsTimes: number[] = [];
    let tsReturn = Number.NaN;
    for (let i = 0; i < rounds; i++) {
      t = performance.now();
      // Forward filling is part of the loop's work (the app's store is read as it is).
      forwardFilled(panel);
      const ref = referenceBacktest(panel, { rebalance: 'monthly', lookback: PARAMS.lookback, top: PARAMS.topN, start: PARAMS.start });
      tsTimes.push(performance.now() - t);
      tsReturn = ref.equity[ref.equity.length - 1] / ref.equity[0] - 1;
    }
    const tsMs = median(tsTimes);
    // The first Python with pandas: the one on PATH, else the system's (Debian's python3-pandas).
    const args = [
      path.join(here, '_sp500_reference.py'),
      PANEL,
      PARAMS.start,
      String(PARAMS.lookback),
      String(PARAMS.topN),
      String(rounds),
    ];
    let py = spawnSync('python3', args, { encoding: 'utf8' });
    if (py.status !== 0 && existsSync('/usr/bin/python3')) py = spawnSync('/usr/bin/python3', args, { encoding: 'utf8' });
    const pandas =
      py.status === 0 ? (JSON.parse(py.stdout.trim().split('\n').pop() as string) as { ms: number; total_return: number }) : null;

    console.log(`monthly top ${PARAMS.topN} by 12-month return (> 0), ${PARAMS.start} to ${PARAMS.end}, 505 companies`);
    console.log(`  app, createBacktest → stored result (job + compute process): first ${fmt(cold.ms)}, median of ${rounds} ${fmt(app)}`);
    console.log(`    of which the compute process's work (data, main and survivors runs): ${fmt(median(computeTimes))}`);
    if (http) {
      console.log(`  the app over HTTP, POST answering with the result: median of ${httpRounds} ${fmt(http.waited)}`);
      console.log(`  the app over HTTP, POST with Prefer: respond-async, then GET every 2 ms: median of ${httpRounds} ${fmt(http.polled)}`);
    } else console.log('  the app over HTTP: not measured (no built app: run node scripts/ensure-build.mjs first)');
    console.log(`  plain TypeScript per-date loop:   ${fmt(tsMs).padStart(9)}  → the app is ${(tsMs / app).toFixed(1)}× as fast`);
    if (pandas)
      console.log(
        `  plain pandas per-date loop:       ${fmt(pandas.ms).padStart(9)}  → the app is ${(pandas.ms / app).toFixed(1)}× as fast${http ? ` (over HTTP ${(pandas.ms / http.waited).toFixed(1)}×, ${(pandas.ms / http.polled).toFixed(1)}× polling)` : ''}`,
      );
    else
      console.log(
        `  pandas loop not run (python3 with pandas not found: ${(py.stderr || String(py.error ?? '')).trim().split('\n').pop()})`,
      );
    console.log(
      `  total return: app ${appReturn.toFixed(8)}, TypeScript loop ${tsReturn.toFixed(8)}${pandas ? `, pandas loop ${pandas.total_return.toFixed(8)}` : ''}`,
    );
  } finally {
    const { closeMarketReader } = await import('../app/services/market/store/open-store.server');
    closeMarketReader();
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    rmSync(dir, { recursive: true, force: true });
  }
}
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run({ quick: process.argv.includes('--quick') });

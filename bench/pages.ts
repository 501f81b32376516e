// Server render time of each page type (home, company tabs, data browser, screener, a member's
// backtest, watchlist, saved screens, profile and the admin page) and of the market data API
// answers, as a ratio to an empty page rendered by the same server in the same run, and the
// pages' first-load JavaScript.
//
//   npx tsx bench/pages.ts [--quick] [--market FILE]
//
// Renders through the BUILT server's request handler (QUARRY_BUILD_DIR or build/; run
// `node scripts/ensure-build.mjs` first), on the benchmark demo universe (6,000 companies ×
// 25 years; --quick: 300 × 5) or on an existing market file (--market FILE, or MARKET_DB).
// A benchmark reports; it never fails on speed.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { backtestStart, FIVE_RULES } from './_screens';
import { TEN_RULES } from './screener';

type Opts = { quick?: boolean; market?: string };

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const WATCHLIST_SIZE = 25;

/**
 * What a member's own pages show: a saved screen, its monthly top-50 backtest over the store's
 * last `years` years (run by a job worker and its compute process, as in the app) and a
 * watchlist of the given companies.
 */
async function memberData(
  userId: string,
  watchlisted: number[],
  years: number,
): Promise<{ screenerId: string; backtestId: string; label: string; rebalance: number }> {
  const { ScreenSchema, ruleFromText } = await import('../app/services/screener/model');
  const { createScreener } = await import('../app/services/screener/saved.server');
  const { createBacktest, getBacktest } = await import('../app/services/backtest/backtests.server');
  const { marketDataRange } = await import('../app/services/backtest/market-inputs.server');
  const { APP_JOBS } = await import('../app/services/app-jobs.server');
  const { startJobWorker, closeJobQueue } = await import('../app/services/jobs/queue.server');
  const { defaultWatchlistId, addItem } = await import('../app/services/watchlist/watchlists.server');
  const screen = ScreenSchema.parse({
    rules: FIVE_RULES.map(ruleFromText),
    ranking: [{ metric: 'ret_12m', direction: 'desc', weight: 1 }],
  });
  const screener = await createScreener(userId, { name: 'Five rules', screen });
  const range = await marketDataRange();
  const start = backtestStart(range, years);
  const worker = startJobWorker(APP_JOBS);
  let backtestId: string;
  try {
    const view = await createBacktest(userId, {
      screenerId: screener.id,
      params: { start, end: range.last, rebalance: 'monthly', topN: 50 },
    });
    for (;;) {
      const b = await getBacktest(userId, view.id);
      if (b.status === 'succeeded') break;
      if (b.status === 'failed' || b.status === 'cancelled') throw new Error(`The benchmark's backtest ${b.status}: ${b.error ?? ''}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    backtestId = view.id;
  } finally {
    await worker.stop();
    await closeJobQueue();
  }
  const list = await defaultWatchlistId(userId);
  for (const permaticker of watchlisted) await addItem(userId, list, { permaticker });
  const months = (Number(range.last.slice(0, 4)) - Number(start.slice(0, 4))) * 12;
  return { screenerId: screener.id, backtestId, label: `${years} years monthly, top 50`, rebalance: Math.floor(months / 2) };
}

export default async function run(opts: Opts = {}): Promise<void> {
  const buildDir = path.resolve(root, process.env.QUARRY_BUILD_DIR ?? 'build');
  const serverEntry = path.join(buildDir, 'server', 'index.js');
  if (!existsSync(serverEntry)) throw new Error(`No built server at ${serverEntry}: run node scripts/ensure-build.mjs first.`);
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-pages-'));
  try {
    // The environment must be set before an app module reads its configuration.
    process.env.NODE_ENV = 'production';
    process.env.DATA_DIR = dir;
    process.env.SESSION_SECRET = 'bench-pages-session-secret-not-a-secret';
    process.env.QUARRY_SKIP_DEMO = '1';
    // The bench's one account is an administrator too, for the admin page.
    process.env.FIRST_USER_IS_ADMIN = '1';
    delete process.env.DATABASE_URL;
    delete process.env.REDIS_URL;
    // Read again: under `npm run bench` an earlier benchmark read it (and removed its DATA_DIR).
    const { resetConfigForTests } = await import('../app/services/config.server');
    resetConfigForTests();
    const given = opts.market ?? process.env.MARKET_DB;
    let market: string;
    let universe: string;
    if (given && existsSync(given)) {
      market = path.resolve(given);
      universe = `existing market file ${market}`;
    } else {
      const { loadDemoUniverse } = await import('../app/services/imports/load-demo.server');
      const { BENCHMARK_DEMO_OPTIONS } = await import('../app/services/market/demo/universe');
      const { afterMarketDataChange } = await import('../app/services/imports/post-import.server');
      const { silentProgress } = await import('../app/services/imports/progress.server');
      const size = opts.quick ? { companies: 300, years: 5, seed: 1 } : BENCHMARK_DEMO_OPTIONS;
      market = path.join(dir, 'market.duckdb');
      universe = `demo ${size.companies} companies × ${size.years} years`;
      const t0 = performance.now();
      await loadDemoUniverse(market, { ...size }, undefined, { beforePublish: (work) => afterMarketDataChange(work, silentProgress) });
      console.log(`universe: ${universe}, generated with snapshots in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    process.env.MARKET_DB = market;

    // A signed-in account with access (company pages need one; the data browser does not).
    const { createUser } = await import('../app/services/auth/users.server');
    const { issueUserToken } = await import('../app/services/auth/tokens.server');
    const { commitSession, getSession, setSignedIn } = await import('../app/services/auth/session.server');
    const user = await createUser({
      email: 'bench@example.test',
      password: 'correct horse battery',
      full_name: 'Bench Reader',
      access: true,
    });
    const session = await getSession(new Request('http://localhost/'));
    setSignedIn(session, await issueUserToken(user.id), user);
    const cookie = (await commitSession(session)).split(';')[0];

    const { openMarketReader } = await import('../app/services/market/store/open-store.server');
    const reader = await openMarketReader(market);
    const [company] = await reader.all<{ permaticker: number; ticker: string }>(
      `SELECT permaticker, ticker FROM securities WHERE NOT is_delisted ORDER BY first_price_date, permaticker LIMIT 1`,
    );
    const compare = await reader.all<{ permaticker: number }>(
      `SELECT permaticker FROM securities WHERE NOT is_delisted AND permaticker <> $1 ORDER BY permaticker LIMIT 2`,
      [company.permaticker],
    );
    const listed = await reader.all<{ permaticker: number }>(
      `SELECT permaticker FROM securities WHERE NOT is_delisted ORDER BY permaticker LIMIT ${WATCHLIST_SIZE}`,
    );
    reader.close();
    const own = await memberData(
      user.id,
      listed.map((c) => c.permaticker),
      opts.quick ? 5 : 25,
    );

    const { createRequestHandler } = await import('@remix-run/node');
    const build = await import(pathToFileURL(serverEntry).href);
    // Each page as the HTTP server renders it (scripts/app-server.mjs): route matches kept per path
    // and the read in a request scope of its own. Not through the company page cache, which answers
    // a repeated read without rendering it.
    build.entry.module.memoizeRouteMatching?.(createRequire(import.meta.url)('@remix-run/router'));
    const renderPage = createRequestHandler(build, 'production');
    const inScope: <T>(fn: () => Promise<T>) => Promise<T> = build.entry.module.runInRequestScope ?? ((fn) => fn());
    const handle = (request: Request) => inScope(() => renderPage(request));
    const p = company.permaticker;
    const pages: [string, string][] = [
      ['empty page (/login, baseline)', '/login'],
      ['home (market overview)', '/'],
      [`company overview (${company.ticker})`, `/company/${p}/overview`],
      ['company valuation tab', `/company/${p}/valuation`],
      ['company chart tab (1 year)', `/company/${p}/chart`],
      ['company chart tab (Max, 2 comparisons)', `/company/${p}/chart?range=Max&compare=${compare.map((c) => c.permaticker).join(',')}`],
      ['company financials tab', `/company/${p}/financial`],
      ['company dividends tab', `/company/${p}/dividend`],
      ['GET /api/v1/valuation/{id}', `/api/v1/valuation/${p}`],
      ['GET /api/v1/market-overview', '/api/v1/market-overview'],
      ['GET /api/v1/data/{id}/revenue_ttm', `/api/v1/data/${p}/revenue_ttm`],
      ['GET /api/v1/company-overview/{id}', `/api/v1/company-overview/${p}`],
      [
        'data browser (revenue TTM, 3 companies)',
        `/data-browser/${company.permaticker}/revenue_ttm?compare=${compare.map((c) => c.permaticker).join(',')}`,
      ],
      ['data browser (P/E TTM, daily, 1 company)', `/data-browser/${company.permaticker}/pe_ttm`],
      // The screener's HTML answer for the 10-rule screen of bench/screener.ts, page of 50.
      ['screener (10 rules, page of 50)', `/screener?${TEN_RULES.map((r) => `r=${encodeURIComponent(r)}`).join('&')}&rank=market_cap:desc`],
      ['backtest form (a saved screen)', `/backtest?screener_id=${own.screenerId}`],
      [`backtest result (${own.label})`, `/backtest?backtest_id=${own.backtestId}`],
      ['backtest result, a rebalance opened', `/backtest?backtest_id=${own.backtestId}&rebalance=${own.rebalance}`],
      [`watchlist (${WATCHLIST_SIZE} companies)`, '/watchlist'],
      ['saved screens and backtests', '/screener/manage'],
      ['profile', '/profile'],
      ['admin (users)', '/admin'],
    ];
    const render = async (url: string) => {
      const t = performance.now();
      const res = await handle(new Request(`http://localhost${url}`, { headers: { Cookie: cookie } }));
      const html = await res.text();
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      return { ms, html };
    };
    const rounds = opts.quick ? 8 : 20;
    const results: { name: string; ms: number; cpuMs: number; html: string; coldMs: number }[] = [];
    for (const [name, url] of pages) {
      const cold = await render(url);
      for (let i = 0; i < 2; i++) await render(url);
      const times: number[] = [];
      let html = cold.html;
      // CPU time of this process (all its threads, DuckDB's too) per request: on a shared
      // machine it says more than the wall-clock time.
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < rounds; i++) {
        const r = await render(url);
        times.push(r.ms);
        html = r.html;
      }
      const cpu = process.cpuUsage(cpu0);
      results.push({ name, ms: median(times), cpuMs: (cpu.user + cpu.system) / 1000 / rounds, html, coldMs: cold.ms });
    }
    const base = results[0].ms;
    const baseCpu = results[0].cpuMs;
    console.log(`server render (median of ${rounds} after warm-up; first request in brackets), ${universe}:`);
    for (const r of results)
      console.log(
        `  ${r.name.padEnd(44)} ${r.ms.toFixed(1).padStart(8)} ms  ×${(r.ms / base).toFixed(2)} of the empty page  CPU ${r.cpuMs.toFixed(1)} ms (×${(r.cpuMs / baseCpu).toFixed(2)})   [first ${r.coldMs.toFixed(0)} ms, HTML ${(r.html.length / 1024).toFixed(0)} KiB]`,
      );

    // First-load JavaScript: the module scripts and modulepreload links of each page's HTML.
    console.log('first-load JavaScript (raw / gzip):');
    const clientDir = path.join(buildDir, 'client');
    for (const r of results) {
      if (r.name.startsWith('GET ')) continue;
      const srcs = new Set<string>();
      for (const m of r.html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)) srcs.add(m[1]);
      for (const m of r.html.matchAll(/import\(?\s*"(\/assets\/[^"]+\.js)"/g)) srcs.add(m[1]);
      let raw = 0;
      let gz = 0;
      for (const src of srcs) {
        const file = path.join(clientDir, src.replace(/^\//, ''));
        if (!existsSync(file)) continue;
        const bytes = readFileSync(file);
        raw += bytes.length;
        gz += gzipSync(bytes).length;
      }
      console.log(
        `  ${r.name.padEnd(44)} ${(raw / 1024).toFixed(0).padStart(6)} KiB / ${(gz / 1024).toFixed(0).padStart(4)} KiB in ${srcs.size} files`,
      );
    }
  } finally {
    const { closeMarketReader } = await import('../app/services/market/store/open-store.server');
    closeMarketReader();
    const { closeDb } = await import('../app/services/db/db.server');
    await closeDb();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--market');
  run({ quick: args.includes('--quick'), market: at >= 0 ? args[at + 1] : undefined }).then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}

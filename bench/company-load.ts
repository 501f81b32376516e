// A bounded loopback load run on the built app: `concurrency` signed-in clients (50 by default)
// asking for one company's overview page as fast as they get answers, for a fixed time, against
// the same run on the sign-in page (an empty page, the baseline). Reports requests per second,
// median and 99th-percentile latency, the ratio to the baseline and the server's peak resident
// memory. The server is `scripts/start.mjs` on the built app (QUARRY_BUILD_DIR or build/; run
// `node scripts/ensure-build.mjs` first) on a free loopback port, web only (JOBS_IN_APP=0).
//
//   BENCH_MARKET_DB=/path/market.duckdb npx tsx bench/company-load.ts   # e.g. the 6,000 × 25 demo
//   npx tsx bench/company-load.ts [--quick]                             # generates a demo universe
//   BENCH_PAGE='chart?range=Max' BENCH_CONCURRENCY=20 BENCH_PORT=4107 …  # another tab, fewer clients, a fixed port
//   WEB_CONCURRENCY=2 …                                                  # two web processes (CPU and RSS are their sums)
//
// Reports, never asserts.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBuiltApp, type BenchApp } from './_app-server';
import { processTree, runLoad, type LoadResult } from './_load';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** CPU time so far (user + system, ms) of a process and those under it (WEB_CONCURRENCY's web processes), from /proc. */
function processCpuMs(pid: number): number {
  let total = 0;
  for (const p of processTree(pid)) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

export default async function run(opts: { quick?: boolean } = {}) {
  const buildDir = path.resolve(root, process.env.QUARRY_BUILD_DIR ?? 'build');
  const serverEntry = path.join(buildDir, 'server', 'index.js');
  if (!existsSync(serverEntry)) throw new Error(`No built server at ${serverEntry}: run node scripts/ensure-build.mjs first.`);
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-load-'));
  const saved = { ...process.env };
  const secret = 'bench-load-session-secret-not-a-secret';
  process.env.NODE_ENV = 'production';
  process.env.DATA_DIR = dir;
  process.env.SESSION_SECRET = secret;
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  let server: BenchApp | null = null;
  try {
    let market = process.env.BENCH_MARKET_DB;
    if (!market) {
      const { loadDemoUniverse } = await import('../app/services/imports/load-demo.server');
      const { afterMarketDataChange } = await import('../app/services/imports/post-import.server');
      const { silentProgress } = await import('../app/services/imports/progress.server');
      const size = opts.quick ? { companies: 300, years: 5, seed: 1 } : { companies: 1500, years: 20, seed: 1 };
      market = path.join(dir, 'market.duckdb');
      await loadDemoUniverse(market, size, silentProgress, { beforePublish: (work) => afterMarketDataChange(work, silentProgress) });
      console.log(`generated a demo universe of ${size.companies} companies × ${size.years} years`);
    }
    process.env.MARKET_DB = market;
    const { resetConfigForTests } = await import('../app/services/config.server');
    resetConfigForTests();
    const { createUser } = await import('../app/services/auth/users.server');
    const { issueUserToken } = await import('../app/services/auth/tokens.server');
    const { commitSession, getSession, setSignedIn } = await import('../app/services/auth/session.server');
    const { closeDb } = await import('../app/services/db/db.server');
    const user = await createUser({ email: 'load@example.test', password: 'correct horse battery', full_name: 'Load Bench', access: true });
    const session = await getSession(new Request('http://localhost/'));
    setSignedIn(session, await issueUserToken(user.id), user);
    const cookie = (await commitSession(session)).split(';')[0];
    await closeDb();
    const { openMarketReader } = await import('../app/services/market/store/open-store.server');
    const reader = await openMarketReader(market);
    const [company] = await reader.all<{ permaticker: number; ticker: string }>(
      `SELECT permaticker, ticker FROM securities WHERE NOT is_delisted ORDER BY first_price_date, permaticker LIMIT 1`,
    );
    reader.close();

    server = await startBuiltApp({ JOBS_IN_APP: '0' });
    const base = server.base;
    const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
    const durationMs = opts.quick ? 3_000 : 15_000;
    // BENCH_PAGE: the tab and query after /company/{id}/ (overview by default), e.g. `chart?range=Max`.
    const tab = process.env.BENCH_PAGE ?? 'overview';
    const page = `/company/${company.permaticker}/${tab}`;
    const headers = { Cookie: cookie };
    // Warm up both pages (first reads, JIT) before measuring.
    await runLoad({ url: `${base}/login`, concurrency: 4, durationMs: 2_000, maxRequests: 200 });
    await runLoad({ url: `${base}${page}`, headers, concurrency: 4, durationMs: 2_000, maxRequests: 200 });
    const pid = server.pid;
    const results: [string, LoadResult, number][] = [];
    // The server's CPU time per answered request (all its threads): on a shared machine the
    // requests per second follow the load, this much less.
    const measure = async (name: string, url: string, h?: Record<string, string>) => {
      const cpu0 = processCpuMs(pid);
      const r = await runLoad({ url, headers: h, concurrency, durationMs, maxRequests: 200_000, watchPid: pid });
      results.push([name, r, (processCpuMs(pid) - cpu0) / Math.max(1, r.requests)]);
    };
    await measure('empty page (/login, baseline)', `${base}/login`);
    await measure(`company ${tab} (${company.ticker}, signed in)`, `${base}${page}`, headers);
    const b = results[0][1];
    console.log(
      `${concurrency} concurrent clients, ${durationMs / 1000} s each, loopback, WEB_CONCURRENCY=${process.env.WEB_CONCURRENCY ?? 1}, on ${market} (machine load average ${loadavg()[0].toFixed(1)} at the end):`,
    );
    for (const [name, r, cpu] of results)
      console.log(
        `  ${name.padEnd(40)} ${r.perSecond.toFixed(0).padStart(6)} req/s (×${(r.perSecond / b.perSecond).toFixed(2)} of the empty page)  p50 ${r.p50.toFixed(0)} ms  p99 ${r.p99.toFixed(0)} ms  errors ${r.errors}  server CPU ${cpu.toFixed(1)} ms/request  server peak RSS ${r.peakRssMb?.toFixed(0) ?? '?'} MB`,
      );
  } finally {
    await server?.stop();
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run({ quick: process.argv.includes('--quick') });

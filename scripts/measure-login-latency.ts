import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { issueUserToken } from '../app/services/auth/tokens.server';
import { createUser, findUserRowByEmail } from '../app/services/auth/users.server';
import { closeDb } from '../app/services/db/db.server';

// Measures /login latency while a backtest runs (the goal: p99 ≤ 250 ms during the daily top-500
// inverse-volatility run). Against a running server that shares DATA_DIR with this script:
//   DATA_DIR=… npx tsx scripts/measure-login-latency.ts --url http://127.0.0.1:3000 [--no-backtest --seconds 60]
// Asks /login every 50 ms (one at a time), polls the backtest through the API every 2 s, and prints
// p50/p99/max, the run's outcome and the load average.

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    'no-backtest': { type: 'boolean', default: false },
    seconds: { type: 'string', default: '60' },
    start: { type: 'string', default: '2007-01-01' },
    end: { type: 'string', default: '2026-12-31' },
    rebalance: { type: 'string', default: 'daily' },
    top: { type: 'string', default: '500' },
    weighting: { type: 'string', default: 'inverse_volatility' },
  },
});
const base = values.url!.replace(/\/$/, '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function serverRss(): string {
  try {
    const port = new URL(base).port;
    const pid = execFileSync('sh', ['-c', `ss -ltnpH 'sport = :${port}' | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2`])
      .toString()
      .trim();
    if (!pid) return '?';
    return `${Math.round(Number(execFileSync('ps', ['-o', 'rss=', '-p', pid]).toString().trim()) / 1024)} MB`;
  } catch {
    return '?';
  }
}

async function token(): Promise<string> {
  const email = 'latency-probe@example.com';
  const row =
    (await findUserRowByEmail(email)) ??
    (await createUser({ email, password: 'latency probe pw 1', full_name: 'Latency Probe', access: true }));
  return (await issueUserToken(row.id)).access_token;
}

async function main() {
  const times: number[] = [];
  let peakRss = serverRss();
  let done = false;
  let outcome = 'no backtest';
  const started = Date.now();
  if (!values['no-backtest']) {
    const t = await token();
    const headers = { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' };
    const body = {
      screen: {
        rules: [{ kind: 'value', metric: 'price', op: '>', value: 1 }],
        ranking: [{ metric: 'market_cap', direction: 'desc', weight: 1 }],
      },
      params: { start: values.start, end: values.end, rebalance: values.rebalance, topN: Number(values.top), weighting: values.weighting },
    };
    // At once (not after the POST's default wait for the run): the measurement runs while it does.
    const created = await fetch(`${base}/api/v1/backtests`, {
      method: 'POST',
      headers: { ...headers, Prefer: 'respond-async' },
      body: JSON.stringify(body),
    });
    const json = (await created.json()) as { id?: string; detail?: string };
    console.log(`POST /api/v1/backtests → ${created.status} ${json.detail ?? json.id}`);
    if (!json.id) process.exit(1);
    void (async () => {
      for (;;) {
        await sleep(2000);
        const r = await fetch(`${base}/api/v1/backtests/${json.id}`, { headers });
        const b = (await r.json()) as { status: string; progress: number; message: string | null; error: string | null };
        const rss = serverRss();
        if (parseInt(rss) > parseInt(peakRss)) peakRss = rss;
        if (['succeeded', 'failed', 'cancelled'].includes(b.status)) {
          outcome = `${b.status}${b.error ? `: ${b.error}` : ''} after ${Math.round((Date.now() - started) / 1000)} s`;
          done = true;
          return;
        }
      }
    })();
  } else {
    setTimeout(() => (done = true), Number(values.seconds) * 1000);
  }
  const slowest: { at: number; ms: number }[] = [];
  while (!done) {
    const t0 = performance.now();
    const r = await fetch(`${base}/login`);
    await r.arrayBuffer();
    const ms = performance.now() - t0;
    times.push(ms);
    slowest.push({ at: Math.round((Date.now() - started) / 1000), ms: Math.round(ms) });
    slowest.sort((a, b) => b.ms - a.ms).splice(5);
    await sleep(50);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]);
  console.log(`outcome: ${outcome}`);
  console.log(`/login: ${times.length} requests, p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${Math.round(times[times.length - 1])} ms`);
  console.log(`slowest: ${slowest.map((x) => `${x.ms} ms at ${x.at} s`).join(', ')}`);
  console.log(
    `server peak RSS ${peakRss}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  await closeDb();
}

void main();

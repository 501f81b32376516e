// A bounded loopback load generator (what autocannon does, without the dependency): `concurrency`
// clients on keep-alive connections each send a request, read the whole answer and send the
// next, until `durationMs` has passed or `maxRequests` were sent. Only loopback URLs are accepted.
// While it runs it samples the resident memory of a process (the server, with its web processes) from /proc.
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';

export type LoadResult = {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Highest resident memory of the watched process seen during the run (MB), when one was given. */
  peakRssMb: number | null;
};

/** `pid` and every process under it (a server's web processes under WEB_CONCURRENCY), from /proc. */
export function processTree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    try {
      for (const tid of readdirSync(`/proc/${all[i]}/task`)) {
        const children = readFileSync(`/proc/${all[i]}/task/${tid}/children`, 'utf8').trim();
        if (children) all.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return all;
}

/** The resident memory of `pid` and the processes under it together (MB). */
export function rssMb(pid: number): number | null {
  let total: number | null = null;
  for (const p of processTree(pid)) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) total = (total ?? 0) + Number(m[1]) / 1024;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

export async function runLoad(opts: {
  url: string;
  headers?: Record<string, string>;
  concurrency: number;
  durationMs: number;
  maxRequests: number;
  watchPid?: number;
}): Promise<LoadResult> {
  const url = new URL(opts.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error(`Load runs only against loopback, not ${url.hostname}`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  let peak: number | null = null;
  const sample = () => {
    if (opts.watchPid === undefined) return;
    const r = rssMb(opts.watchPid);
    if (r !== null) peak = Math.max(peak ?? 0, r);
  };
  const sampler = setInterval(sample, 100);
  const started = performance.now();
  const deadline = started + opts.durationMs;
  const one = () =>
    new Promise<void>((resolve) => {
      const t = performance.now();
      const req = http.request(url, { agent, headers: opts.headers }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => {
          latencies.push(performance.now() - t);
          if (res.statusCode !== 200) errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const client = async () => {
    while (performance.now() < deadline && sent < opts.maxRequests) {
      sent++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, client));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  sample();
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return {
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    peakRssMb: peak,
  };
}

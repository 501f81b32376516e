import { existsSync } from 'node:fs';
import { config } from '../config.server';
import type { ProgressReporter } from '../market/store/records';
import { openMarketWriter } from '../market/store/writer.server';
import { afterMarketDataChange } from './post-import.server';
import { silentProgress } from './progress.server';
import { DEMO_SOURCE, type DemoOptions } from '../market/demo/plan';
import { demoBatches } from '../market/demo/batches.server';
import { createDemoUniverse, DEFAULT_DEMO_OPTIONS } from '../market/demo/universe';

// Writes a demo universe into a market file. The demo replaces the whole store (it is a
// universe of its own), built in a private copy and published by one rename, so readers and
// a concurrent `npm start` only ever see a complete store.

export type DemoLoadResult = {
  file: string;
  snapshotId: string;
  companies: number;
  prices: number;
  facts: number;
  actions: number;
  seconds: number;
};

/**
 * Companies per batch, appended as one: each append leaves the tables' last row groups part
 * filled, and their blocks with them. At 400 the 6,000 × 25-year demo's file was 17 MB smaller
 * than at 200 (which is what keeps it under 1 GB without a rewrite), and a batch's rows (~400 ×
 * 6,300 prices as typed columns, ~180 MB) still sit comfortably in memory.
 */
const BATCH = 400;

export type DemoLoadHooks = {
  /** Runs on the finished work file before it is published (e.g. building metric snapshots). */
  beforePublish?: (workFile: string) => Promise<unknown>;
};

export async function loadDemoUniverse(
  file: string,
  options: DemoOptions,
  progress: ProgressReporter = silentProgress,
  hooks: DemoLoadHooks = {},
): Promise<DemoLoadResult> {
  return (await buildDemo(file, options, progress, false, hooks)) as DemoLoadResult;
}

async function buildDemo(
  file: string,
  options: DemoOptions,
  progress: ProgressReporter,
  onlyIfMissing: boolean,
  hooks: DemoLoadHooks,
): Promise<DemoLoadResult | null> {
  const started = performance.now();
  const universe = createDemoUniverse(options);
  const { companies: total, years, seed, endDate } = universe.plan.options;
  const writer = await openMarketWriter(file, { fresh: true, boundMemory: true, callerThread: true });
  // Checked again under the writer lock: another process may have just published it.
  if (onlyIfMissing && existsSync(file)) {
    await writer.discard();
    return null;
  }
  const counts = { prices: 0, facts: 0, actions: 0 };
  try {
    progress.log(`Demo universe (fictional companies): ${total} companies, ${years} years to ${endDate}, seed ${seed} -> ${file}`);
    progress.start('demo', total);
    // One transaction per batch of companies: the work file is private until published (a
    // failed build is discarded whole), and DuckDB holds a transaction's rows in memory until it
    // commits — one transaction for 6,000 companies over 25 years grew the process by a gigabyte
    // and more, a batch at a time stays flat.
    for await (const batch of demoBatches(universe, BATCH)) {
      const keys = batch.securities.map((s) => s.permaticker);
      // The facts on the second connection, alongside the rest: DuckDB inserts them on a thread of
      // the pool while this one appends the prices.
      const facts = writer.sideTransaction((tx) => tx.replaceCodedFacts(keys, DEMO_SOURCE, batch.facts));
      const rest = writer.transaction(async (tx) => {
        await tx.upsertSecurities(batch.securities);
        await tx.replaceTickerHistories(keys, batch.tickerHistory);
        await tx.replacePriceColumns(keys, batch.prices);
        await tx.replaceActions(keys, DEMO_SOURCE, batch.actions);
      });
      const [f, r] = await Promise.allSettled([facts, rest]);
      if (f.status === 'rejected') throw f.reason;
      if (r.status === 'rejected') throw r.reason;
      counts.prices += batch.counts.prices;
      counts.facts += batch.counts.facts;
      counts.actions += batch.counts.actions;
      progress.tick(keys.length);
    }
    progress.stop();
    const { snapshotId } = await writer.finish(DEMO_SOURCE, JSON.stringify({ companies: total, years, seed, endDate }));
    await writer.publish({ beforeRename: hooks.beforePublish });
    return { file, snapshotId, companies: total, ...counts, seconds: (performance.now() - started) / 1000 };
  } catch (e) {
    progress.stop();
    await writer.discard();
    throw e;
  }
}

/**
 * First run of `npm start`: generate the default demo universe when no market data exists.
 * Safe when two processes start at once: one builds (under the writer lock, into a temp file
 * that is renamed into place), the other waits for the file to appear.
 */
export async function ensureDemoData(
  options: { file?: string; progress?: ProgressReporter; waitMs?: number; demo?: Partial<DemoOptions> } = {},
): Promise<{ created: boolean; file: string; result?: DemoLoadResult }> {
  const file = options.file ?? config().marketDb;
  const progress = options.progress ?? silentProgress;
  if (existsSync(file)) return { created: false, file };
  try {
    const result = await buildDemo(file, { ...DEFAULT_DEMO_OPTIONS, ...options.demo }, progress, true, {
      beforePublish: (workFile) => afterMarketDataChange(workFile, progress),
    });
    return result ? { created: true, file, result } : { created: false, file };
  } catch (e) {
    if (!(e instanceof Error && /Another process/.test(e.message))) throw e;
    progress.log(`Another process is generating the demo data; waiting for ${file}.`);
    const deadline = performance.now() + (options.waitMs ?? 10 * 60_000);
    while (!existsSync(file)) {
      if (performance.now() > deadline) throw new Error(`Timed out waiting for another process to create ${file}.`);
      await new Promise((r) => setTimeout(r, 250));
    }
    return { created: false, file };
  }
}

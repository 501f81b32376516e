import { existsSync } from 'node:fs';
import path from 'node:path';
import { config } from '../config.server';
import { ensureDemoData, loadDemoUniverse } from './load-demo.server';
import { DEFAULT_DEMO_OPTIONS } from '../market/demo/universe';
import { afterMarketDataChange } from './post-import.server';
import { createProgressReporter } from './progress.server';
import { importAsJob, importSummaryLine } from './import-job.server';
import { importerUsage, IMPORT_SOURCES, isImportSource } from './import-run.server';
import type { ProgressReporter } from '../market/store/records';
import { dueRefreshSources, NO_REFRESH_SOURCE, refreshSources, REFRESH_ARGS, refreshSummaryLine } from './refresh-job.server';
import { readMarketStatus } from './data-status.server';
import { MarketDataMissingError, openMarketReader, openWritableStore } from '../market/store/open-store.server';

// `npm run data -- <command>`: the market data CLI. The logic lives here (testable with a
// fake output); scripts/data.ts only wires it to the process.

export const DATA_USAGE = `Usage: npm run data -- <command> [options]

Commands:
  demo [--companies N] [--years Y] [--seed S] [--end YYYY-MM-DD] [--out FILE]
      Generate the fictional demo universe (replaces the store at FILE; default MARKET_DB).
      Defaults: ${DEFAULT_DEMO_OPTIONS.companies} companies, ${DEFAULT_DEMO_OPTIONS.years} years, seed ${DEFAULT_DEMO_OPTIONS.seed}.
  ensure-demo
      Generate the default demo universe only if no market data exists (used by npm start).
  import <sec|sharadar|prices|tiingo|nasdaq> ...args
      Run an importer into MARKET_DB; "import <source> --help" shows its arguments.
  refresh
      Fetch what is new since the last run for every security in the store: new daily bars from the
      configured price provider (TIINGO_API_KEY) and new filings from SEC EDGAR (SEC_USER_AGENT),
      publish each and rebuild the metric snapshots. The app runs the
      same refresh every day at DATA_REFRESH_AT (default 22:30 America/New_York; off disables it).
  status [--file FILE]
      Snapshot id, row counts, price date range, whether the metric snapshots are current, and the last import runs.
  rebuild-snapshots [--file FILE]
      Build the metric snapshots again (after a new metric or a new metrics engine) and publish them.`;

export type CliIo = { out: (line: string) => void; err: (line: string) => void; progress: ProgressReporter };

export class UsageError extends Error {
  override name = 'UsageError';
}

type Flags = Map<string, string>;

function parseFlags(args: string[], allowed: readonly string[]): Flags {
  const flags: Flags = new Map();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) throw new UsageError(`Unexpected argument "${arg}".`);
    const [name, inline] = arg.slice(2).split('=', 2);
    if (!allowed.includes(name)) throw new UsageError(`Unknown option --${name}.`);
    const value = inline ?? args[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value.`);
    flags.set(name, value);
  }
  return flags;
}

function intFlag(flags: Flags, name: string, fallback: number): number {
  const raw = flags.get(name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`--${name} must be an integer, got "${raw}".`);
  return Number(raw);
}

async function demo(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, ['companies', 'years', 'seed', 'out', 'end']);
  const file = path.resolve(flags.get('out') ?? config().marketDb);
  const options = {
    companies: intFlag(flags, 'companies', DEFAULT_DEMO_OPTIONS.companies),
    years: intFlag(flags, 'years', DEFAULT_DEMO_OPTIONS.years),
    seed: intFlag(flags, 'seed', DEFAULT_DEMO_OPTIONS.seed),
    ...(flags.has('end') ? { endDate: flags.get('end') } : {}),
  };
  let result;
  try {
    result = await loadDemoUniverse(file, options, io.progress, {
      beforePublish: (workFile) => afterMarketDataChange(workFile, io.progress),
    });
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
  io.out(
    `Demo universe written to ${result.file}: ${result.companies} companies, ${result.prices} prices, ${result.facts} facts, ` +
      `${result.actions} corporate actions in ${result.seconds.toFixed(1)} s. Snapshot ${result.snapshotId}.`,
  );
  return 0;
}

async function ensureDemo(io: CliIo): Promise<number> {
  const outcome = await ensureDemoData({ progress: io.progress });
  io.out(
    outcome.created
      ? `Demo universe created at ${outcome.file} (snapshot ${outcome.result?.snapshotId}).`
      : `Market data already present at ${outcome.file}.`,
  );
  return 0;
}

async function runImport(args: string[], io: CliIo): Promise<number> {
  const [source, ...rest] = args;
  const names = IMPORT_SOURCES.join(', ');
  if (!source) throw new UsageError(`Name a source to import: ${names}.`);
  if (!isImportSource(source)) throw new UsageError(`Unknown source "${source}". Sources: ${names}.`);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(importerUsage(source));
    return 0;
  }
  const { job, summary } = await importAsJob(source, rest, io.progress, (queued) =>
    io.out(`Import job ${queued.id} (listed on the admin page).`),
  );
  for (const w of summary?.warnings ?? []) io.err(`warning: ${w}`);
  if (job.status === 'succeeded') {
    io.out(summary ? importSummaryLine(summary) : (job.message ?? 'Imported.'));
    return 0;
  }
  io.err(
    job.status === 'cancelled'
      ? 'Import cancelled, the store is unchanged.'
      : `Import failed, the store is unchanged: ${job.error ?? job.message ?? 'unknown error'}`,
  );
  return 1;
}

async function refresh(args: string[], io: CliIo): Promise<number> {
  parseFlags(args, []);
  if (refreshSources().length === 0) {
    io.err(NO_REFRESH_SOURCE);
    return 1;
  }
  const due = await dueRefreshSources();
  if (due.length === 0) {
    io.out('Nothing to refresh: the store has no real securities with prices or filings yet (import some first).');
    return 0;
  }
  let failed = false;
  for (const source of due) {
    const { job, summary } = await importAsJob(source, REFRESH_ARGS, io.progress, (queued) =>
      io.out(`Refresh job ${queued.id} (${source}, listed on the admin page).`),
    );
    for (const w of summary?.warnings ?? []) io.err(`warning: ${w}`);
    if (job.status === 'succeeded') {
      io.out(summary ? refreshSummaryLine(summary) : (job.message ?? 'Refreshed.'));
      continue;
    }
    failed = true;
    io.err(
      job.status === 'cancelled'
        ? `Refresh from ${source} cancelled, the store is unchanged by it.`
        : `Refresh from ${source} failed, the store is unchanged by it: ${job.error ?? job.message ?? 'unknown error'}`,
    );
  }
  return failed ? 1 : 0;
}

async function status(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, ['file']);
  const file = path.resolve(flags.get('file') ?? config().marketDb);
  let reader;
  try {
    reader = await openMarketReader(file);
  } catch (e) {
    if (e instanceof MarketDataMissingError) {
      io.out(e.message);
      return 1;
    }
    throw e;
  }
  try {
    const s = await readMarketStatus(reader);
    io.out(`Market store: ${file}`);
    io.out(`Snapshot:     ${s.snapshotId ?? '(none)'}`);
    io.out(`Securities:   ${s.securities} (${s.delisted} delisted${s.demo > 0 ? `, ${s.demo} DEMO — fictional` : ''})`);
    io.out(`Prices:       ${s.priceRows} rows, ${s.firstPriceDate ?? '-'} to ${s.lastPriceDate ?? '-'}`);
    io.out(`Facts:        ${s.facts}`);
    io.out(`Actions:      ${s.corporateActions}`);
    io.out(`Snapshots:    ${s.snapshotDates} dates${s.latestSnapshotDate ? `, latest ${s.latestSnapshotDate}` : ''}`);
    if (s.snapshotFreshness.state === 'stale') io.out(`              ${s.snapshotFreshness.message}`);
    io.out(s.recentRuns.length === 0 ? 'Import runs:  none' : 'Import runs:');
    for (const r of s.recentRuns)
      io.out(`  ${r.started_at}  ${r.source.padEnd(9)} ${r.status}${r.finished_at ? `  finished ${r.finished_at}` : ''}`);
    if (s.latestErrors.length > 0) {
      io.out('Latest import errors:');
      for (const r of s.latestErrors) io.out(`  ${r.started_at}  ${r.source.padEnd(9)} ${r.detail ?? '(no detail)'}`);
    }
    return 0;
  } finally {
    reader.close();
  }
}

async function rebuildSnapshots(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, ['file']);
  const file = path.resolve(flags.get('file') ?? config().marketDb);
  if (!existsSync(file)) {
    io.err(`No market data at ${file}: import some first (npm run data -- demo, or import).`);
    return 1;
  }
  const started = Date.now();
  // The same path as an import: build on a private copy, then publish it over the store in one
  // rename, so the running app keeps reading the old snapshots until the new ones are complete.
  const store = await openWritableStore(file);
  await store.publish({ beforeRename: (workFile) => afterMarketDataChange(workFile, io.progress, { full: true }) });
  io.out(`Metric snapshots of ${file} rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return 0;
}

/** Runs one CLI command; returns the process exit code (0 ok, 1 failed, 2 usage). */
export async function runDataCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'demo':
        return await demo(args, io);
      case 'ensure-demo':
        return await ensureDemo(io);
      case 'import':
        return await runImport(args, io);
      case 'refresh':
        return await refresh(args, io);
      case 'status':
        return await status(args, io);
      case 'rebuild-snapshots':
        return await rebuildSnapshots(args, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(DATA_USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`${e.message}\n\n${DATA_USAGE}`);
      return 2;
    }
    io.err(`Failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

export function processIo(): CliIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    progress: createProgressReporter(),
  };
}

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ImportContext, Importer, ImportSummary } from '../store/records';
import { parseArgs } from './files.server';
import { csvLines, createDatatablesClient, type DatatablePage, type DatatablesClient } from './sharadar/datatables-client.server';
import { sharadarImporter } from './sharadar.server';
import { zipEntries } from './zip-entries.server';
import { parse } from 'csv-parse/sync';

// Sharadar's tables (TICKERS, SEP, SF1, ACTIONS) straight from Nasdaq Data Link: pages through
// the tables API for a list of tickers, or the bulk export for whole tables. Every page and export
// is saved under DATA_DIR/providers as it arrives, so a stopped import continues where it stopped;
// the tables are then written out as the vendor's CSVs and read by the Sharadar CSV importer,
// so both paths map every column the same way.

const USAGE = `import nasdaq --tickers AAPL,MSFT [--tables TICKERS,SEP,SF1,ACTIONS]
import nasdaq --all [--tables …]     (whole tables through the bulk export)
import nasdaq --refresh              (what is new for the Sharadar securities in the store; the daily refresh runs it)
  Needs NASDAQ_DATA_LINK_API_KEY with a Sharadar subscription; NASDAQ_DATA_LINK_API_URL points elsewhere (a proxy).`;

const TABLES = ['TICKERS', 'SEP', 'SF1', 'ACTIONS'] as const;
type Table = (typeof TABLES)[number];

export const nasdaqDataLinkImporter: Importer = {
  name: 'nasdaq',
  usage: USAGE,
  async run(args, ctx) {
    const { paths, flags } = parseArgs(args, ['tickers', 'tables']);
    if (paths.length > 0) throw new Error(`Unexpected argument "${paths[0]}".\n${USAGE}`);
    const settings = ctx.env.nasdaqDataLink;
    if (!settings?.apiKey) throw new Error('Nasdaq Data Link import refused: set NASDAQ_DATA_LINK_API_KEY (a Sharadar subscription).');
    if (!ctx.env.cacheDir) throw new Error('Nasdaq Data Link import needs a cache folder (DATA_DIR).');
    if (flags.has('refresh')) {
      if (flags.has('all') || flags.has('tickers') || flags.has('tables')) throw new Error(`--refresh takes no other option.\n${USAGE}`);
      return refreshRows(ctx, { ...settings, apiKey: settings.apiKey }, ctx.env.cacheDir);
    }
    const all = flags.has('all');
    const rawTickers = flags.get('tickers');
    const tickers =
      typeof rawTickers === 'string'
        ? [
            ...new Set(
              rawTickers
                .split(',')
                .map((t) => t.trim().toUpperCase())
                .filter(Boolean),
            ),
          ].sort()
        : [];
    if (all === tickers.length > 0) throw new Error(`Give one of --tickers or --all.\n${USAGE}`);
    const bad = tickers.find((t) => !/^[A-Z0-9][A-Z0-9.-]{0,19}$/.test(t));
    if (bad) throw new Error(`"${bad}" is not a ticker`);
    const tables = tablesFlag(flags.get('tables'));

    const client = createDatatablesClient({
      apiKey: settings.apiKey,
      apiUrl: settings.apiUrl,
      exportPollMs: settings.exportPollMs,
      fetch: ctx.fetch,
      onWait: (message) => ctx.progress.log(`Waiting: ${message}`),
    });
    const key = createHash('sha256')
      .update(`${all ? 'all' : tickers.join(',')}|${tables.join(',')}`)
      .digest('hex')
      .slice(0, 16);
    const runDir = path.join(ctx.env.cacheDir, 'nasdaq-data-link', key);
    mkdirSync(runDir, { recursive: true });
    ctx.progress.start('Nasdaq Data Link tables', tables.length);
    for (const table of tables) {
      const csvFile = path.join(runDir, `SHARADAR_${table}.csv`);
      if (existsSync(csvFile)) {
        ctx.progress.log(`${table}: already downloaded by an unfinished run`);
      } else {
        const text = all
          ? await exportCsv(client, table)
          : await pagedCsv(client, table, filtersFor(table, tickers), path.join(runDir, table), ctx.progress.log);
        writeWhole(csvFile, text);
      }
      ctx.progress.tick();
    }
    ctx.progress.stop();
    const summary = await sharadarImporter.run([runDir], ctx);
    rmSync(runDir, { recursive: true, force: true });
    return summary;
  },
};

/** Tickers per TICKERS request in a refresh (the filter travels in the URL). */
const TICKER_CHUNK = 100;

/**
 * The daily refresh: every SEP and SF1 row updated (`lastupdated.gte`) and every action dated
 * (`date.gte`) on or after the newest day the store holds from Sharadar, for the Sharadar
 * securities in the store, with their TICKERS rows for the mapping; the tables are then merged
 * into the store through the Sharadar importer. A split makes Sharadar update the security's
 * whole split-adjusted SEP history, which comes back here as updated rows.
 */
type NasdaqSettings = { apiKey: string; apiUrl: string; exportPollMs?: number };

async function refreshRows(ctx: ImportContext, settings: NasdaqSettings, cacheDir: string): Promise<ImportSummary> {
  const held = await ctx.writer.sourceSecurities('sharadar');
  if (held.tickers.length === 0 || held.newest === null)
    throw new Error('Nothing to refresh from Nasdaq Data Link: the store has no Sharadar securities (import nasdaq or sharadar first).');
  const since = held.newest;
  const mine = new Set(held.tickers);
  const client = createDatatablesClient({
    apiKey: settings.apiKey,
    apiUrl: settings.apiUrl,
    exportPollMs: settings.exportPollMs,
    fetch: ctx.fetch,
    onWait: (message) => ctx.progress.log(`Waiting: ${message}`),
  });
  const runDir = path.join(cacheDir, 'nasdaq-data-link', `refresh-${since}`);
  mkdirSync(runDir, { recursive: true });
  ctx.progress.log(`Nasdaq Data Link: rows updated since ${since} for ${mine.size} Sharadar securities`);
  ctx.progress.start('Nasdaq Data Link tables', TABLES.length);
  const filters: Record<Exclude<Table, 'TICKERS'>, Record<string, string>> = {
    SEP: { 'lastupdated.gte': since },
    SF1: { 'lastupdated.gte': since, dimension: 'ARQ,ARY,ART' },
    ACTIONS: { 'date.gte': since },
  };
  const seen = new Set<string>();
  for (const table of ['SEP', 'SF1', 'ACTIONS'] as const) {
    const csvFile = path.join(runDir, `SHARADAR_${table}.csv`);
    if (!existsSync(csvFile)) {
      // Only the store's securities: the filters by date answer for every ticker Sharadar covers.
      const text = await pagedCsv(client, table, filters[table], path.join(runDir, table), ctx.progress.log, (row, columns) =>
        mine.has(String(row[columns.indexOf('ticker')] ?? '')),
      );
      writeWhole(csvFile, text);
    }
    for (const t of tickersIn(readFileSync(csvFile, 'utf8'))) seen.add(t);
    ctx.progress.tick();
  }
  const tickersFile = path.join(runDir, 'SHARADAR_TICKERS.csv');
  if (!existsSync(tickersFile)) {
    const wanted = [...seen].sort();
    let header = '';
    const lines: string[] = [];
    for (let i = 0; i < wanted.length; i += TICKER_CHUNK) {
      const chunk = wanted.slice(i, i + TICKER_CHUNK);
      const [head, ...rows] = (
        await pagedCsv(client, 'TICKERS', { ticker: chunk.join(',') }, path.join(runDir, `TICKERS-${i / TICKER_CHUNK}`), ctx.progress.log)
      )
        .trimEnd()
        .split('\n');
      header ||= head;
      lines.push(...rows.filter(Boolean));
    }
    writeWhole(tickersFile, wanted.length === 0 ? '' : [header, ...lines].join('\n') + '\n');
  }
  ctx.progress.tick();
  ctx.progress.stop();
  const summary =
    seen.size === 0
      ? {
          source: 'sharadar',
          securities: 0,
          rows: 0,
          snapshotId: (await ctx.writer.finish('sharadar', 'nothing new')).snapshotId,
          warnings: [],
        }
      : await sharadarImporter.run([runDir, '--merge'], ctx);
  rmSync(runDir, { recursive: true, force: true });
  return summary;
}

/** The tickers of a table's rows (a CSV with a ticker column). */
function tickersIn(csv: string): string[] {
  if (csv.trim() === '') return [];
  const rows = parse(csv, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  return rows.map((r) => r.ticker ?? '').filter(Boolean);
}

function tablesFlag(flag: string | true | undefined): Table[] {
  if (flag === undefined) return [...TABLES];
  const asked = String(flag)
    .split(',')
    .map((t) => t.trim().toUpperCase());
  const unknown = asked.find((t) => !(TABLES as readonly string[]).includes(t));
  if (unknown) throw new Error(`--tables: "${unknown}" is not one of ${TABLES.join(', ')}`);
  // TICKERS maps tickers to permatickers: every import needs it.
  return TABLES.filter((t) => t === 'TICKERS' || asked.includes(t));
}

function filtersFor(table: Table, tickers: string[]): Record<string, string> {
  const filters: Record<string, string> = { ticker: tickers.join(',') };
  if (table === 'SF1') filters.dimension = 'ARQ,ARY,ART';
  return filters;
}

async function pagedCsv(
  client: DatatablesClient,
  table: Table,
  filters: Record<string, string>,
  pageDir: string,
  log: (m: string) => void,
  keep: (row: DatatablePage['rows'][number], columns: string[]) => boolean = () => true,
): Promise<string> {
  mkdirSync(pageDir, { recursive: true });
  let columns: string[] | null = null;
  const lines: string[] = [];
  let cursor: string | null = null;
  for (let n = 0; ; n++) {
    const file = path.join(pageDir, `page-${n}.json`);
    let page: DatatablePage;
    if (existsSync(file)) {
      page = JSON.parse(readFileSync(file, 'utf8')) as DatatablePage;
    } else {
      page = await client.page(table, filters, cursor);
      writeWhole(file, JSON.stringify(page));
    }
    columns ??= page.columns;
    const names = columns;
    lines.push(...csvLines(page.rows.filter((r) => keep(r, names))));
    log(`${table}: page ${n + 1}, ${lines.length} rows`);
    if (!page.next) break;
    cursor = page.next;
  }
  return [(columns ?? []).join(','), ...lines].join('\n') + '\n';
}

async function exportCsv(client: DatatablesClient, table: Table): Promise<string> {
  const zip = await client.exportTable(table);
  const entry = zipEntries(zip, `SHARADAR_${table}.zip`).find((e) => e.name.toLowerCase().endsWith('.csv'));
  if (!entry) throw new Error(`Nasdaq Data Link's ${table} export holds no CSV file`);
  return new TextDecoder().decode(entry.read());
}

function writeWhole(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

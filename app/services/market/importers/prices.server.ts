import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ImportFileError, type Importer, type SecurityRecord } from '../store/records';
import { batchRows, BatchWriter } from './batch-writer.server';
import { expandPaths, parseArgs, readText } from './files.server';
import { adjustSeries } from './prices/adjust';
import { priceOnlySecurity } from './prices/price-only-security';
import { PRICE_BASES, type PriceBasis } from './prices/layouts';
import { zipEntries } from './zip-entries.server';
import { parsePriceCsv, tickerFromFileName } from './prices/parse-ohlcv';

// OHLCV CSV importer. Each file is parsed and checked whole before any of its rows are written;
// each ticker's prices and `prices`-source actions are replaced, many tickers per transaction.

const USAGE = `import prices <file.csv|file.csv.gz|folder|d_us_txt.zip>... [--ticker T] [--basis raw|split-adjusted|split-dividend-adjusted] [--skip-bad-rows] [--known-only] [--with-etfs] [--batch-rows N]
  layouts: Stooq, Yahoo, Tiingo, Quandl WIKI, zipline csvdir, plain date,open,high,low,close,volume[,adj_close],
  and panels with a Name/ticker column. The ticker comes from that column or the file name (aapl.us.txt → AAPL).
  The basis comes from the layout (Tiingo and Quandl as traded, the others split-adjusted as of their last bar); --basis says it
  for a file whose layout does not (e.g. raw prices in a plain date,open,high,low,close,volume file).
  split-dividend-adjusted: with a dividend column the dividend factor is taken out again (market cap on split-adjusted
  prices, the file's close kept as the total-return index), assuming the file is adjusted as of its last bar; without one
  the import warns that market cap and multiples carry the dividend factor.
  --known-only rejects a file with a ticker the store does not know yet, instead of creating a security.
  A zip (Stooq's bulk d_us_txt.zip) is read file by file; its ETF folders are left out unless --with-etfs.`;

const SOURCE = 'prices';

export const pricesImporter: Importer = {
  name: 'prices',
  usage: USAGE,
  async run(args, ctx) {
    const { paths, flags } = parseArgs(args, ['ticker', 'batch-rows', 'basis']);
    const basisFlag = flags.get('basis');
    if (basisFlag !== undefined && !PRICE_BASES.includes(basisFlag as PriceBasis))
      throw new Error(`--basis must be one of ${PRICE_BASES.join(', ')}, not "${String(basisFlag)}"`);
    const basis = basisFlag === undefined ? undefined : (basisFlag as PriceBasis);
    if (paths.length === 0) throw new Error(`No input files.\n${USAGE}`);
    const tickerFlag = typeof flags.get('ticker') === 'string' ? (flags.get('ticker') as string).toUpperCase() : null;
    const skipBadRows = flags.has('skip-bad-rows');
    const knownOnly = flags.has('known-only');
    const files = expandPaths(paths, (f) => /\.(csv|txt)(\.gz)?$/i.test(f) || /\.zip$/i.test(f)).flatMap((f) =>
      /\.zip$/i.test(f) ? zipInputs(f, flags.has('with-etfs')) : [{ file: f, read: () => readText(f) }],
    );
    if (tickerFlag && files.length > 1) throw new Error('--ticker applies to a single file');
    const warnings: string[] = [];
    const written = new Map<string, string>();
    // Tickers whose security this run created (found again in a later file of the same run).
    const created = new Map<string, number>();
    const batch = new BatchWriter(ctx.writer, SOURCE, batchRows(flags.get('batch-rows')));
    let securities = 0;
    let rows = 0;
    for (const { file, read } of files) {
      const parsed = parsePriceCsv(read(), file, {
        ticker: tickerFlag ?? tickerFromFileName(path.basename(file)),
        skipBadRows,
        basis,
      });
      warnings.push(...parsed.warnings);
      ctx.progress.start(`prices ${path.basename(file)} (${parsed.layout.name})`, parsed.series.size);
      for (const [ticker, bars] of [...parsed.series.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        if (bars.length === 0) continue;
        const previous = written.get(ticker);
        if (previous) warnings.push(`${file}: ${ticker} was also in ${previous}; this file's prices replace it`);
        written.set(ticker, file);
        const createdHere = created.get(ticker);
        const existing = createdHere ?? (await ctx.writer.findPermaticker({ ticker }));
        if (existing === null && knownOnly) {
          throw new ImportFileError(
            file,
            bars[0].line,
            `unknown ticker "${ticker}": not in the store (without --known-only it would be created)`,
          );
        }
        const permaticker = existing ?? (await batch.newPermaticker());
        if (existing === null) created.set(ticker, permaticker);
        const { prices, actions } = adjustSeries(bars, parsed.layout, permaticker, SOURCE);
        // Securities created by other sources keep their row (name, sector, CIK...).
        const security: SecurityRecord | null =
          existing === null || createdHere !== undefined ? priceOnlySecurity(permaticker, ticker, prices, SOURCE) : null;
        await batch.add({ permaticker, security, prices, actions });
        securities += 1;
        rows += prices.length;
        ctx.progress.tick();
      }
      ctx.progress.stop();
    }
    await batch.flush();
    const { snapshotId } = await ctx.writer.finish(SOURCE, `${securities} securities, ${rows} prices`);
    return { source: SOURCE, securities, rows, snapshotId, warnings };
  },
};

/** The price files inside a zip, in name order; a file of it is named `archive.zip:path/in/zip`. */
function zipInputs(zip: string, withEtfs: boolean): { file: string; read: () => string }[] {
  const decoder = new TextDecoder();
  return zipEntries(readFileSync(zip), zip)
    .filter((e) => /\.(csv|txt)$/i.test(e.name) && (withEtfs || !/(^|\/)[^/]*etf[^/]*\//i.test(e.name)))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((e) => ({ file: `${zip}:${e.name}`, read: () => decoder.decode(e.read()) }));
}

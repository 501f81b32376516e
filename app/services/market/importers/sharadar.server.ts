import type { CorporateActionRecord, FactRecord, Importer, PriceRecord } from '../store/records';
import { ImportFileError } from '../store/records';
import { headerOf } from './csv-table';
import { expandPaths, parseArgs, readText } from './files.server';
import { parseActions } from './sharadar/parse-actions';
import { parseSep } from './sharadar/parse-sep';
import { parseSf1 } from './sharadar/parse-sf1';
import { parseTickers } from './sharadar/parse-tickers';
import { tableOf, type SharadarTable } from './sharadar/tables';
import { tickerHistory } from './sharadar/ticker-history';

// Sharadar bulk CSV importer (TICKERS, SEP, SF1, ACTIONS). Sharadar's permaticker is the
// identity. Every file is parsed and checked before anything is written, then securities are
// written in batches, one transaction each.

const USAGE = `import sharadar <SHARADAR_TICKERS.csv> [SHARADAR_SEP.csv] [SHARADAR_SF1.csv] [SHARADAR_ACTIONS.csv] | <folder> [--merge]
  Tables are recognised by their header (.csv or .csv.gz); TICKERS is required.
  --merge adds the rows to what the store holds (new or corrected days, filings, actions) instead of replacing each security's rows.`;

const SOURCE = 'sharadar';
const BATCH = 200;

export const sharadarImporter: Importer = {
  name: 'sharadar',
  usage: USAGE,
  async run(args, ctx) {
    const { paths, flags } = parseArgs(args, []);
    // --merge (the Nasdaq Data Link refresh): the tables hold only new or changed rows, which are
    // added to what the store has instead of replacing each security's rows.
    const merge = flags.has('merge');
    if (paths.length === 0) throw new Error(`No input files.\n${USAGE}`);
    const files = new Map<SharadarTable, { file: string; text: string }[]>();
    for (const file of expandPaths(paths, (f) => /\.csv(\.gz)?$/i.test(f))) {
      const text = readText(file);
      const table = tableOf(headerOf(text));
      if (!table)
        throw new ImportFileError(file, 1, `not a Sharadar TICKERS, SEP, SF1 or ACTIONS table (header: ${headerOf(text).join(',')})`);
      files.set(table, [...(files.get(table) ?? []), { file, text }]);
    }
    const tickerFiles = files.get('TICKERS');
    if (!tickerFiles) throw new Error(`A Sharadar TICKERS file is required: it maps tickers to permatickers.\n${USAGE}`);
    if (tickerFiles.length > 1) throw new ImportFileError(tickerFiles[1].file, null, 'more than one TICKERS file');

    ctx.progress.log(`reading ${[...files.values()].flat().length} Sharadar file(s)`);
    const tickers = parseTickers(tickerFiles[0].text, tickerFiles[0].file);
    const warnings: string[] = [];
    const prices: PriceRecord[] = [];
    for (const f of files.get('SEP') ?? []) prices.push(...parseSep(f.text, f.file, tickers.byTicker));
    const facts: FactRecord[] = [];
    for (const f of files.get('SF1') ?? []) {
      const r = parseSf1(f.text, f.file, tickers.byTicker);
      facts.push(...r.facts);
      for (const [dimension, n] of r.skippedDimensions)
        warnings.push(`${f.file}: ${n} ${dimension} rows skipped (only ARQ and ARY are as reported)`);
    }
    const actions: CorporateActionRecord[] = [];
    for (const f of files.get('ACTIONS') ?? []) {
      const r = parseActions(f.text, f.file, tickers.byTicker, tickers.byRelatedTicker);
      actions.push(...r.actions);
      for (const [kind, n] of r.skipped) warnings.push(`${f.file}: ${n} "${kind}" actions skipped`);
    }

    const group = <T extends { permaticker: number }>(list: T[]) => {
      const m = new Map<number, T[]>();
      for (const r of list) {
        const l = m.get(r.permaticker);
        if (l) l.push(r);
        else m.set(r.permaticker, [r]);
      }
      return m;
    };
    const pricesBy = group(prices);
    const factsBy = group(facts);
    const actionsBy = group(actions);
    const hasSf1 = files.has('SF1');
    const hasActions = files.has('ACTIONS');

    const securities = tickers.securities;
    ctx.progress.start('Sharadar securities', securities.length);
    for (let i = 0; i < securities.length; i += BATCH) {
      const batch = securities.slice(i, i + BATCH);
      const keys = batch.map((s) => s.permaticker);
      await ctx.writer.transaction(async (tx) => {
        await tx.upsertSecurities(batch);
        if (merge) {
          await tx.mergePrices(
            keys,
            keys.flatMap((k) => pricesBy.get(k) ?? []),
          );
          await tx.mergeFacts(
            SOURCE,
            keys.flatMap((k) => factsBy.get(k) ?? []),
          );
          await tx.mergeActions(
            SOURCE,
            keys.flatMap((k) => actionsBy.get(k) ?? []),
          );
          return;
        }
        for (const s of batch) await tx.replaceTickerHistory(s.permaticker, tickerHistory(s, actionsBy.get(s.permaticker) ?? []));
        // Prices are replaced only for securities this SEP file covers, so a TICKERS-only run
        // does not wipe prices that came from elsewhere.
        const withPrices = keys.filter((k) => pricesBy.has(k));
        if (withPrices.length > 0)
          await tx.replacePrices(
            withPrices,
            withPrices.flatMap((k) => pricesBy.get(k)!),
          );
        if (hasSf1)
          await tx.replaceFacts(
            keys,
            SOURCE,
            keys.flatMap((k) => factsBy.get(k) ?? []),
          );
        if (hasActions)
          await tx.replaceActions(
            keys,
            SOURCE,
            keys.flatMap((k) => actionsBy.get(k) ?? []),
          );
      });
      ctx.progress.tick(batch.length);
    }
    ctx.progress.stop();
    const rows = prices.length + facts.length + actions.length;
    const { snapshotId } = await ctx.writer.finish(SOURCE, `${securities.length} securities, ${rows} rows`);
    return { source: SOURCE, securities: securities.length, rows, snapshotId, warnings };
  },
};

import { isIsoDate } from '../../dates';
import type { ImportContext, Importer, PricedSecurity, SecurityRecord, TiingoSettings } from '../store/records';
import { batchRows, BatchWriter } from './batch-writer.server';
import { parseArgs } from './files.server';
import { adjustSeries } from './prices/adjust';
import { priceOnlySecurity } from './prices/price-only-security';
import type { Layout } from './prices/layouts';
import type { Bar } from './prices/parse-ohlcv';
import { zipEntries } from './zip-entries.server';
import { parseSupportedTickers, usCommonStocks, type TiingoListing } from './tiingo/supported-tickers';
import { mergeBars, TiingoCache } from './tiingo/tiingo-cache.server';
import { createTiingoClient, type TiingoBar, type TiingoClient } from './tiingo/tiingo-client.server';

// Tiingo end-of-day importer: daily prices as traded with their dividends and splits, for a list
// of tickers, every US common stock of Tiingo's ticker list, or (--refresh) every security the
// store already prices. Bars are put on the store's basis by the same code as price files
// (prices/adjust.ts), so a Tiingo import and a Tiingo CSV of the same days store the same rows.

const USAGE = `import tiingo --tickers AAPL,MSFT [--from YYYY-MM-DD] [--batch-rows N]
import tiingo --all-listed [--include-delisted] [--from YYYY-MM-DD]
import tiingo --refresh      (new days for every security in the store; what \`npm run data -- refresh\` runs)
  Needs TIINGO_API_KEY. TIINGO_API_URL points elsewhere (a proxy); TIINGO_REQUESTS_PER_HOUR and
  TIINGO_REQUESTS_PER_DAY are your plan's limits (free plan: 50 and 1000). Answers are cached under
  DATA_DIR/providers, so a stopped import continues without asking again for what it already has.`;

const SOURCE = 'tiingo';

// Tiingo's bars are as traded, with the day's cash dividend and split factor.
const TIINGO_LAYOUT: Layout = {
  name: 'tiingo',
  basis: 'raw',
  columns: { date: 0, ticker: null, open: 1, high: 2, low: 3, close: 4, volume: 5, adjClose: null, dividend: 6, split: 7, period: null },
};

type Target = { ticker: string; from: string | null; known: PricedSecurity | null; listing: TiingoListing | null };

export const tiingoImporter: Importer = {
  name: 'tiingo',
  usage: USAGE,
  async run(args, ctx) {
    const { paths, flags } = parseArgs(args, ['tickers', 'from', 'batch-rows']);
    if (paths.length > 0) throw new Error(`Unexpected argument "${paths[0]}".\n${USAGE}`);
    const from = flags.get('from');
    if (from !== undefined && (typeof from !== 'string' || !isIsoDate(from)))
      throw new Error(`--from needs a date YYYY-MM-DD, got ${String(from)}`);
    const modes = ['tickers', 'all-listed', 'refresh'].filter((m) => flags.has(m));
    if (modes.length !== 1) throw new Error(`Give one of --tickers, --all-listed or --refresh.\n${USAGE}`);
    const settings = ctx.env.tiingo;
    if (!settings?.apiKey) throw new Error('Tiingo import refused: set TIINGO_API_KEY (a free key comes with a Tiingo account).');
    if (!ctx.env.cacheDir) throw new Error('Tiingo import needs a cache folder (DATA_DIR).');
    const warnings: string[] = [];
    const client = tiingoClient(settings, ctx);
    const cache = new TiingoCache(ctx.env.cacheDir);
    const start = typeof from === 'string' ? from : null;

    const targets = await chooseTargets(modes[0], flags, start, client, ctx);
    const today = new Date().toISOString().slice(0, 10);
    const runKey =
      modes[0] === 'refresh' ? `refresh ${today}` : `import ${targets.map((t) => t.ticker).join(',')} from ${start ?? 'start'}`;
    const resumed = cache.resumable(runKey);
    if (resumed.size > 0)
      ctx.progress.log(`Continuing an unfinished run: ${resumed.size} ticker(s) already fetched are read from the cache.`);
    const done = new Set(resumed);

    const batch = new BatchWriter(ctx.writer, SOURCE, batchRows(flags.get('batch-rows')));
    let securities = 0;
    let rows = 0;
    let newRows = 0;
    ctx.progress.start('Tiingo daily prices', targets.length);
    for (const target of targets) {
      const bars = await history(target, client, cache, resumed.has(target.ticker));
      done.add(target.ticker);
      cache.markDone(runKey, done);
      ctx.progress.tick();
      if (bars === null) {
        warnings.push(`${target.ticker}: Tiingo does not know this ticker (HTTP 404); skipped`);
        continue;
      }
      const usable = bars.filter((b) => (target.from === null || b.date >= target.from) && b.close > 0);
      if (usable.length < bars.filter((b) => target.from === null || b.date >= target.from).length)
        warnings.push(`${target.ticker}: days without a positive close skipped`);
      if (usable.length === 0) {
        warnings.push(`${target.ticker}: no daily prices${target.from ? ` from ${target.from}` : ''}; skipped`);
        continue;
      }
      const existing = target.known?.permaticker ?? (await ctx.writer.findPermaticker({ ticker: target.ticker }));
      const permaticker = existing ?? (await batch.newPermaticker());
      const { prices, actions } = adjustSeries(usable.map(toBar), TIINGO_LAYOUT, permaticker, SOURCE);
      const security: SecurityRecord | null =
        existing === null ? priceOnlySecurity(permaticker, target.ticker, prices, SOURCE, target.listing?.exchange || null) : null;
      await batch.add({ permaticker, security, prices, actions });
      securities += 1;
      rows += prices.length;
      const lastKnown = target.known?.lastPriceDate;
      newRows += lastKnown ? prices.filter((p) => p.date > lastKnown).length : prices.length;
    }
    ctx.progress.stop();
    await batch.flush();
    if (securities === 0 && modes[0] !== 'refresh') throw new Error(`Nothing imported from Tiingo: ${warnings.join('; ') || 'no tickers'}`);
    const detail =
      modes[0] === 'refresh'
        ? `${securities} securities refreshed, ${newRows} new prices, ${client.requests} requests`
        : `${securities} securities, ${rows} prices, ${client.requests} requests`;
    const { snapshotId } = await ctx.writer.finish(SOURCE, detail);
    cache.clearPending();
    return { source: SOURCE, securities, rows: modes[0] === 'refresh' ? newRows : rows, snapshotId, warnings };
  },
};

function tiingoClient(settings: TiingoSettings, ctx: ImportContext): TiingoClient {
  return createTiingoClient({
    apiKey: settings.apiKey!,
    apiUrl: settings.apiUrl,
    tickersUrl: settings.tickersUrl,
    perHour: settings.perHour,
    perDay: settings.perDay,
    fetch: ctx.fetch,
    onWait: (message) => ctx.progress.log(`Waiting: ${message}`),
  });
}

async function chooseTargets(
  mode: string,
  flags: Map<string, string | true>,
  from: string | null,
  client: TiingoClient,
  ctx: ImportContext,
): Promise<Target[]> {
  if (mode === 'tickers') {
    const raw = flags.get('tickers');
    const tickers =
      typeof raw === 'string'
        ? [
            ...new Set(
              raw
                .split(',')
                .map((t) => t.trim().toUpperCase())
                .filter(Boolean),
            ),
          ]
        : [];
    if (tickers.length === 0) throw new Error(`--tickers needs a comma-separated list, e.g. AAPL,MSFT`);
    const bad = tickers.find((t) => !/^[A-Z0-9][A-Z0-9.-]{0,19}$/.test(t));
    if (bad) throw new Error(`"${bad}" is not a ticker`);
    return tickers.sort().map((ticker) => ({ ticker, from, known: null, listing: null }));
  }
  if (mode === 'all-listed') {
    const zip = await client.supportedTickersZip();
    const entry = zipEntries(zip, 'supported_tickers.zip').find((e) => e.name.toLowerCase().endsWith('.csv'));
    if (!entry) throw new Error('Tiingo ticker list: supported_tickers.zip holds no CSV file');
    const listings = parseSupportedTickers(new TextDecoder().decode(entry.read()), 'supported_tickers.csv');
    const stocks = usCommonStocks(listings, flags.has('include-delisted'));
    ctx.progress.log(`Tiingo lists ${stocks.length} US common stocks${flags.has('include-delisted') ? ' (delisted included)' : ''}.`);
    return stocks.map(({ listing }) => ({ ticker: listing.ticker, from, known: null, listing }));
  }
  const securities = (await ctx.writer.pricedSecurities()).filter((s) => !s.isDelisted);
  if (securities.length === 0) throw new Error('Nothing to refresh: the store has no real securities with prices yet (import some first).');
  const seen = new Set<string>();
  return securities.flatMap((s) => {
    const ticker = s.ticker.toUpperCase();
    if (seen.has(ticker)) return [];
    seen.add(ticker);
    return [{ ticker, from: s.firstPriceDate, known: s, listing: null }];
  });
}

/** The ticker's raw bars: cached ones plus what is new, fetched only when not already done in this run. */
async function history(target: Target, client: TiingoClient, cache: TiingoCache, doneInThisRun: boolean): Promise<TiingoBar[] | null> {
  const cached = cache.read(target.ticker);
  const covers = cached !== null && (cached.from === null || (target.from !== null && cached.from <= target.from));
  if (covers && doneInThisRun) return cached.bars;
  if (covers && cached.bars.length > 0) {
    // Ask again from the newest cached day: a late correction of that day replaces it.
    const fresh = await client.dailyPrices(target.ticker, cached.bars[cached.bars.length - 1].date);
    if (fresh === null) return null;
    const bars = mergeBars(cached.bars, sortBars(fresh));
    cache.write({ ticker: target.ticker, from: cached.from, bars });
    return bars;
  }
  const fresh = await client.dailyPrices(target.ticker, target.from);
  if (fresh === null) return null;
  const bars = sortBars(fresh);
  cache.write({ ticker: target.ticker, from: target.from, bars });
  return bars;
}

function sortBars(bars: TiingoBar[]): TiingoBar[] {
  const byDate = new Map(bars.map((b) => [b.date, b]));
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

function toBar(b: TiingoBar, i: number): Bar {
  return {
    date: b.date,
    open: b.open,
    high: b.high,
    low: b.low,
    close: b.close,
    volume: b.volume,
    adjClose: null,
    dividend: b.divCash,
    split: b.splitFactor,
    line: i + 1,
  };
}

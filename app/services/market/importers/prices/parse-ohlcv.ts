import { isIsoDate, type IsoDate } from '../../../dates';
import { ImportFileError } from '../../store/records';
import { csvRecords } from '../csv-records';
import { detectLayout, type Layout, type PriceBasis } from './layouts';
import { seriesWarnings } from './series-checks';

// Reads one OHLCV CSV (any layout of layouts.ts) into bars per ticker, checking every row.
// Pure: the caller reads (and gunzips) the file and passes its text.

export type Bar = {
  date: IsoDate;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number;
  volume: number | null;
  adjClose: number | null;
  /** Cash per share on the ex-date, in the layout's basis; 0 = none. */
  dividend: number;
  /** New shares per old share on the ex-date; 1 = none. */
  split: number;
  line: number;
};

export type ParsedPriceFile = { layout: Layout; series: Map<string, Bar[]>; warnings: string[] };

export type ParseOptions = {
  /** Ticker for single-ticker layouts, usually from the file name. */
  ticker: string | null;
  /** Skip rows with impossible values (with a warning) instead of rejecting the file. */
  skipBadRows?: boolean;
  /** The prices' basis when the caller knows it (--basis); otherwise the layout's. */
  basis?: PriceBasis;
};

/** `aapl.us.txt` → `AAPL`, `BRK.B.csv.gz` → `BRK.B`: Stooq names files by ticker plus market. */
export function tickerFromFileName(baseName: string): string {
  return baseName
    .replace(/\.gz$/i, '')
    .replace(/\.(csv|txt)$/i, '')
    .replace(/\.us$/i, '')
    .toUpperCase();
}

export function parsePriceCsv(text: string, file: string, options: ParseOptions): ParsedPriceFile {
  const records = csvRecords(text, file);
  if (records.length === 0) throw new ImportFileError(file, 1, 'empty file: no header');
  const layout = detectLayout(records[0].cells.map((h) => h.trim()));
  if ('error' in layout) throw new ImportFileError(file, 1, layout.error);
  if (options.basis) layout.basis = options.basis;
  if (layout.columns.ticker === null && !options.ticker)
    throw new ImportFileError(file, 1, 'no ticker column and no ticker in the file name');

  const c = layout.columns;
  const series = new Map<string, Bar[]>();
  const warnings: string[] = [];
  const seen = new Map<string, Set<string>>();
  for (let i = 1; i < records.length; i++) {
    const { cells: record, line } = records[i];
    const fail = (reason: string): never => {
      throw new ImportFileError(file, line, reason);
    };
    const cell = (index: number | null) => (index === null ? '' : (record[index] ?? '').trim());
    const number = (index: number | null, what: string): number | null => {
      const raw = cell(index);
      if (raw === '') return null;
      const value = Number(raw);
      if (!Number.isFinite(value)) fail(`${what} "${raw}" is not a number`);
      return value;
    };

    const rawTicker = c.ticker !== null ? cell(c.ticker) : options.ticker!;
    if (rawTicker === '') fail('empty ticker');
    const ticker = rawTicker.replace(/\.US$/i, '').toUpperCase();
    if (c.period !== null && cell(c.period).toUpperCase() !== 'D') fail(`period "${cell(c.period)}" is not daily (D)`);
    const date = parseDate(cell(c.date));
    if (!date) fail(`date "${cell(c.date)}" is not a date`);

    const close = number(c.close, 'close');
    if (close === null) {
      // A known defect of real panels (rows with empty fields): the day is unusable, not the file.
      warnings.push(`${file}:${line}: ${ticker} ${date}: no close, row skipped`);
      continue;
    }
    const bar: Bar = {
      date: date!,
      open: number(c.open, 'open'),
      high: number(c.high, 'high'),
      low: number(c.low, 'low'),
      close,
      volume: number(c.volume, 'volume'),
      adjClose: number(c.adjClose, 'adjusted close'),
      dividend: number(c.dividend, 'dividend') ?? 0,
      split: number(c.split, 'split') ?? 1,
      line,
    };
    const problem = impossible(bar);
    if (problem) {
      if (!options.skipBadRows) fail(`${ticker} ${bar.date}: ${problem}`);
      warnings.push(`${file}:${line}: ${ticker} ${bar.date}: ${problem}, row skipped`);
      continue;
    }
    let dates = seen.get(ticker);
    if (!dates) seen.set(ticker, (dates = new Set()));
    if (dates.has(bar.date)) fail(`${ticker} ${bar.date} appears twice`);
    dates.add(bar.date);
    const list = series.get(ticker);
    if (list) list.push(bar);
    else series.set(ticker, [bar]);
  }
  for (const [ticker, bars] of series) {
    bars.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    warnings.push(...seriesWarnings(bars, file, ticker));
  }
  if (layout.basis === 'split-dividend-adjusted' && layout.columns.dividend === null && series.size > 0) {
    warnings.push(
      `${file}: prices adjusted for splits and dividends, without the dividends: the dividend factor cannot be taken out, so market cap and every multiple on these prices are lower than on the price as traded by the dividends paid since (give the dividends, or a split-adjusted file)`,
    );
  }
  return { layout, series, warnings };
}

/** Values no market can produce. A close a little outside high–low is a real vendor quirk, not this. */
function impossible(bar: Bar): string | null {
  for (const key of ['open', 'high', 'low', 'close', 'adjClose'] as const) {
    const v = bar[key];
    if (v !== null && v <= 0) return `${key} ${v} is not a positive price`;
  }
  if (bar.high !== null && bar.low !== null && bar.high < bar.low) return `high ${bar.high} is below low ${bar.low}`;
  if (bar.volume !== null && bar.volume < 0) return `volume ${bar.volume} is negative`;
  if (bar.dividend < 0) return `dividend ${bar.dividend} is negative`;
  if (!(bar.split > 0)) return `split ratio ${bar.split} is not positive`;
  return null;
}

/** `2014-06-09`, `20140609` (Stooq bulk) or `2014-06-09 00:00:00+00:00` (zipline). */
function parseDate(raw: string): IsoDate | null {
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(raw);
  const candidate = compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : raw.slice(0, 10);
  if (!compact && raw.length > 10 && !/^[ T]/.test(raw.slice(10))) return null;
  return isIsoDate(candidate) ? candidate : null;
}

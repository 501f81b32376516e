// Recognises the common OHLCV CSV layouts from their header. Each layout says which column holds
// what and on what basis its prices are, because the same word means different things:
// Yahoo's "Close" is split-adjusted, Tiingo's "close" and Quandl's "close" are as traded.

/**
 * raw: as traded; split-adjusted: divided by later splits (as of the file's last bar);
 * split-dividend-adjusted: also scaled for dividends (a total-return series, e.g. Yahoo's Adj Close alone).
 */
export type PriceBasis = 'raw' | 'split-adjusted' | 'split-dividend-adjusted';
export const PRICE_BASES: readonly PriceBasis[] = ['raw', 'split-adjusted', 'split-dividend-adjusted'];

export type Layout = {
  name: 'stooq' | 'stooq-bulk' | 'yahoo' | 'tiingo' | 'quandl' | 'zipline-csvdir' | 'plain' | 'panel';
  /** Basis of open/high/low/close (and of dividends, for zipline). */
  basis: PriceBasis;
  columns: {
    date: number;
    ticker: number | null;
    open: number | null;
    high: number | null;
    low: number | null;
    close: number;
    volume: number | null;
    adjClose: number | null;
    dividend: number | null;
    split: number | null;
    period: number | null;
  };
};

/** `Adj Close`, `adj_close`, `<CLOSE>`, `ex-dividend` → `adjclose`, `close`, `exdividend`. */
export function normaliseHeader(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^\uFEFF/, '')
    .replace(/[<>\s_-]/g, '');
}

const ALIASES: Record<keyof Layout['columns'], string[]> = {
  date: ['date', 'timestamp'],
  ticker: ['ticker', 'name', 'symbol'],
  open: ['open'],
  high: ['high'],
  low: ['low'],
  close: ['close'],
  volume: ['volume', 'vol'],
  adjClose: ['adjclose'],
  dividend: ['dividend', 'divcash', 'exdividend', 'dividends'],
  split: ['split', 'splitfactor', 'splitratio', 'stocksplits'],
  period: ['per'],
};

export const SUPPORTED_LAYOUTS =
  'Stooq (Date,Open,High,Low,Close,Volume or <TICKER>,<PER>,<DATE>,...), Yahoo (Date,Open,High,Low,Close,Adj Close,Volume), ' +
  'Tiingo (date,close,high,low,open,volume,adjClose,...,divCash,splitFactor), Quandl WIKI (ticker,date,...,ex-dividend,split_ratio,...), ' +
  'zipline csvdir (date,open,high,low,close,volume,dividend,split), plain (date,open,high,low,close,volume[,adj_close]) ' +
  'and panels of these with a Name/ticker column';

/** Returns the layout, or a reason the header is not one we know. */
export function detectLayout(header: string[]): Layout | { error: string } {
  const names = header.map(normaliseHeader);
  const find = (key: keyof Layout['columns']): number | null => {
    for (const alias of ALIASES[key]) {
      const i = names.indexOf(alias);
      if (i >= 0) return i;
    }
    return null;
  };
  const columns = {
    date: find('date'),
    ticker: find('ticker'),
    open: find('open'),
    high: find('high'),
    low: find('low'),
    close: find('close'),
    volume: find('volume'),
    adjClose: find('adjClose'),
    dividend: find('dividend'),
    split: find('split'),
    period: find('period'),
  };
  const missing = (['date', 'open', 'high', 'low', 'close'] as const).filter((k) => columns[k] === null);
  if (missing.length > 0) {
    return { error: `unrecognised price columns (${header.join(',')}): missing ${missing.join(', ')}. Supported: ${SUPPORTED_LAYOUTS}` };
  }
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) return { error: `column "${n}" appears twice` };
    seen.add(n);
  }
  const c = columns as Layout['columns'];
  const has = (n: string) => names.includes(n);
  if (has('divcash') || has('splitfactor')) return { name: 'tiingo', basis: 'raw', columns: c };
  if (has('exdividend') || has('splitratio')) return { name: 'quandl', basis: 'raw', columns: c };
  if (c.period !== null) return { name: 'stooq-bulk', basis: 'split-adjusted', columns: c };
  if (c.dividend !== null || c.split !== null) return { name: 'zipline-csvdir', basis: 'split-adjusted', columns: c };
  if (c.ticker !== null) return { name: 'panel', basis: 'split-adjusted', columns: c };
  if (has('adjclose') && header.some((h) => h.trim() === 'Adj Close')) return { name: 'yahoo', basis: 'split-adjusted', columns: c };
  if (header[0]?.trim() === 'Date' && header.length === 6) return { name: 'stooq', basis: 'split-adjusted', columns: c };
  return { name: 'plain', basis: 'split-adjusted', columns: c };
}

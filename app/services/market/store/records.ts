import type { IsoDate } from '../../dates';
import type { Concept } from './schema';
import type { Security } from './security';

// Normalised records that importers and the demo generator hand to a MarketWriter.
// Parsers produce these without touching storage; the writer owns transactions.

/** A security as an importer writes it; the writer fills currency (USD), description and isDemo when left out. */
export type SecurityRecord = Omit<Security, 'currency' | 'description' | 'isDemo'> &
  Partial<Pick<Security, 'currency' | 'description' | 'isDemo'>>;

export type TickerPeriodRecord = { permaticker: number; ticker: string; startDate: IsoDate | null; endDate: IsoDate | null };

export type PriceRecord = {
  permaticker: number;
  date: IsoDate;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number;
  volume: number | null;
  closeUnadj: number | null;
  tri: number | null;
};

export type CorporateActionRecord = {
  permaticker: number;
  date: IsoDate;
  action: 'dividend' | 'split' | 'delisting' | 'acquisition' | 'bankruptcy' | 'ticker_change' | 'listing';
  value: number | null;
  detail: string | null;
  source: string;
};

export type FactRecord = {
  permaticker: number;
  concept: Concept;
  value: number;
  unit: string;
  periodStart: IsoDate | null;
  periodEnd: IsoDate;
  fiscalYear: number | null;
  /** 9M: a nine-month year-to-date figure (per-share values only, what a fourth-quarter EPS is derived from). */
  fiscalPeriod: 'Q1' | 'Q2' | 'Q3' | 'Q4' | 'FY' | '9M' | null;
  form: string | null;
  filed: IsoDate;
  accession: string | null;
  source: string;
  sourceTag: string | null;
};

/** Progress of a long run: a bar on a terminal, plain lines otherwise. */
export interface ProgressReporter {
  start(label: string, total: number): void;
  tick(amount?: number): void;
  stop(): void;
  log(message: string): void;
}

/**
 * Everything an importer may do to the store. One `transaction` is all-or-nothing: a crash or
 * kill -9 inside it leaves the store as it was, so a re-run resumes cleanly. Writes of one
 * security replace that security's rows from the same source, which makes re-runs idempotent.
 */
export interface MarketWriter {
  transaction<T>(work: (tx: MarketWriteTx) => Promise<T>): Promise<T>;
  /** Lowest permaticker not yet used (new securities are numbered from here). */
  nextPermaticker(): Promise<number>;
  /** Find an existing security by CIK or by ticker (for importers that match on either). */
  findPermaticker(by: { cik?: string | null; ticker?: string | null }): Promise<number | null>;
  /** The store's securities that have prices, real ones only (a refresh brings these up to date). */
  pricedSecurities(): Promise<PricedSecurity[]>;
  /** Real securities with a CIK, with the newest filing date of their SEC facts (null: none yet). */
  filingSecurities(): Promise<FilingSecurity[]>;
  /** Real securities a source created, with the newest day of any row of theirs (price, its facts' filing, its actions). */
  sourceSecurities(source: string): Promise<{ tickers: string[]; newest: IsoDate | null }>;
  /** Recompute the data snapshot id from the store's content and derived tables. */
  finish(source: string, detail?: string): Promise<{ snapshotId: string }>;
}

export type FilingSecurity = { permaticker: number; ticker: string; cik: string; lastFiled: IsoDate | null };

export type PricedSecurity = {
  permaticker: number;
  ticker: string;
  firstPriceDate: IsoDate;
  lastPriceDate: IsoDate;
  isDelisted: boolean;
};

export interface MarketWriteTx {
  upsertSecurities(rows: SecurityRecord[]): Promise<void>;
  /**
   * For securities another source created: fills in what their row lacks (a NULL field, or a
   * name that is only the ticker, as the prices importer writes) from these records. Never
   * overwrites what a source wrote, and leaves the price dates and the row's source alone.
   */
  fillSecurityGaps(rows: SecurityRecord[]): Promise<void>;
  replaceTickerHistory(permaticker: number, rows: TickerPeriodRecord[]): Promise<void>;
  /** Replaces every price row of these permatickers with the given rows. */
  replacePrices(permatickers: number[], rows: PriceRecord[]): Promise<void>;
  /** Replaces every action of these permatickers that came from `source`. */
  replaceActions(permatickers: number[], source: string, rows: CorporateActionRecord[]): Promise<void>;
  /** Replaces every fact of these permatickers that came from `source`. */
  replaceFacts(permatickers: number[], source: string, rows: FactRecord[]): Promise<void>;
  /**
   * Adds these price rows of these permatickers, replacing a stored row of the same security and
   * day (a refresh's new or corrected rows); their price ranges follow their stored prices.
   */
  mergePrices(permatickers: number[], rows: PriceRecord[]): Promise<void>;
  /** Adds these actions from `source`, replacing its stored ones of the same security, day and kind. */
  mergeActions(source: string, rows: CorporateActionRecord[]): Promise<void>;
  /** Adds these facts from `source`, replacing its stored ones of the same security, concept, period and filing day. */
  mergeFacts(source: string, rows: FactRecord[]): Promise<void>;
}

export type ImportContext = {
  writer: MarketWriter;
  progress: ProgressReporter;
  /** The clock and environment come in from the CLI so importers stay testable. */
  env: {
    secUserAgent?: string;
    /** Base URL of data.sec.gov (overridable for a proxy or a test server). */
    secEdgarUrl?: string;
    /** Base URL of www.sec.gov, where the bulk archives are. */
    secArchivesUrl?: string;
    tiingo?: TiingoSettings;
    nasdaqDataLink?: { apiKey?: string; apiUrl: string; exportPollMs?: number };
    cacheDir?: string;
  };
  fetch?: typeof fetch;
};

/** Tiingo's key, addresses and plan limits (config.server.ts reads them from the environment). */
export type TiingoSettings = { apiKey?: string; apiUrl: string; tickersUrl: string; perHour: number; perDay: number };

export type ImportSummary = {
  source: string;
  securities: number;
  rows: number;
  snapshotId: string;
  warnings: string[];
  /** Metric snapshot dates stored after the import and how many were computed (set once published). */
  snapshotDates?: { built: number; total: number };
};

export interface Importer {
  name: 'sec' | 'sharadar' | 'prices' | 'tiingo' | 'nasdaq';
  usage: string;
  run(args: string[], ctx: ImportContext): Promise<ImportSummary>;
}

/** A bad input file: the CLI prints it and exits non-zero; the store is left as it was. */
export class ImportFileError extends Error {
  override name = 'ImportFileError';
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(`${file}${line !== null ? `:${line}` : ''}: ${reason}`);
  }
}

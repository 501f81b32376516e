import { randomUUID } from 'node:crypto';
import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { config } from '../../config.server';
import type { IsoDate } from '../../dates';
import type {
  CorporateActionRecord,
  FactRecord,
  MarketWriter,
  MarketWriteTx,
  PriceRecord,
  PricedSecurity,
  FilingSecurity,
  SecurityRecord,
  TickerPeriodRecord,
} from './records';
import { appendRows, appendTypedColumns, epochDayOf, type ColumnSpec, type TypedColumn } from './bulk-append.server';
import { openWritableStore, queryRows, type OpenWritableOptions, type PublishOptions, type WritableStore } from './open-store.server';
import { refreshSnapshotId } from './snapshot-id.server';

// The one way data gets into the market store (records.ts has the contract). Column lists
// follow the DDL order in schema.ts; the appender refuses a mismatch.

const SECURITY_COLUMNS: ColumnSpec<SecurityRecord>[] = [
  { name: 'permaticker', kind: 'integer', get: (r) => r.permaticker },
  { name: 'ticker', kind: 'varchar', get: (r) => r.ticker },
  { name: 'name', kind: 'varchar', get: (r) => r.name },
  { name: 'exchange', kind: 'varchar', get: (r) => r.exchange },
  { name: 'category', kind: 'varchar', get: (r) => r.category },
  { name: 'sector', kind: 'varchar', get: (r) => r.sector },
  { name: 'industry', kind: 'varchar', get: (r) => r.industry },
  { name: 'cik', kind: 'varchar', get: (r) => r.cik },
  { name: 'currency', kind: 'varchar', get: (r) => r.currency ?? 'USD' },
  { name: 'description', kind: 'varchar', get: (r) => r.description ?? null },
  { name: 'first_price_date', kind: 'date', get: (r) => r.firstPriceDate },
  { name: 'last_price_date', kind: 'date', get: (r) => r.lastPriceDate },
  { name: 'is_delisted', kind: 'boolean', get: (r) => r.isDelisted },
  { name: 'is_demo', kind: 'boolean', get: (r) => r.isDemo ?? false },
  { name: 'source', kind: 'varchar', get: (r) => r.source },
];

const TICKER_COLUMNS: ColumnSpec<TickerPeriodRecord>[] = [
  { name: 'permaticker', kind: 'integer', get: (r) => r.permaticker },
  { name: 'ticker', kind: 'varchar', get: (r) => r.ticker },
  { name: 'start_date', kind: 'date', get: (r) => r.startDate },
  { name: 'end_date', kind: 'date', get: (r) => r.endDate },
];

const PRICE_DOUBLES = ['open', 'high', 'low', 'close', 'volume', 'closeUnadj', 'tri'] as const;
const PRICE_DOUBLE_COLUMNS: Record<(typeof PRICE_DOUBLES)[number], string> = {
  open: 'open',
  high: 'high',
  low: 'low',
  close: 'close',
  volume: 'volume',
  closeUnadj: 'close_unadj',
  tri: 'tri',
};

type PriceColumns = {
  /** The prices table's columns in DDL order (schema.ts). */
  table: TypedColumn[];
  /** First and last day of each permaticker's rows. */
  ranges: { perm: number[]; first: number[]; last: number[] };
};

/**
 * Price rows as typed columns (one pass, no value objects), checked as the appender would
 * (`prices row N: close must be a finite number`), and checked to repeat no (permaticker, date):
 * the prices table has no key, so this is what keeps a batch's rows unique.
 */
function priceColumns(rows: readonly PriceRecord[]): PriceColumns {
  const n = rows.length;
  const perm = new Int32Array(n);
  const day = new Int32Array(n);
  const doubles = PRICE_DOUBLES.map(() => new Float64Array(n));
  const ranges = new Map<number, { first: number; last: number }>();
  let ordered = true;
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    const p = r.permaticker;
    if (typeof p !== 'number' || !Number.isInteger(p))
      throw new Error(`prices row ${i + 1}: permaticker must be an integer, got ${String(p)}`);
    let d: number;
    try {
      d = epochDayOf(r.date);
    } catch (e) {
      throw new Error(`prices row ${i + 1}: ${(e as Error).message}`);
    }
    perm[i] = p;
    day[i] = d;
    for (let c = 0; c < PRICE_DOUBLES.length; c++) {
      const key = PRICE_DOUBLES[c];
      const v = r[key] as unknown;
      if (v === null || (v === undefined && key !== 'close')) doubles[c][i] = Number.NaN;
      else if (typeof v !== 'number' || !Number.isFinite(v))
        throw new Error(`prices row ${i + 1}: ${PRICE_DOUBLE_COLUMNS[key]} must be a finite number, got ${String(v)}`);
      else doubles[c][i] = v;
    }
    if (Number.isNaN(doubles[3][i])) throw new Error(`prices row ${i + 1}: close must be a finite number, got null`);
    const range = ranges.get(p);
    if (!range) ranges.set(p, { first: d, last: d });
    else {
      if (d < range.first) range.first = d;
      if (d > range.last) range.last = d;
    }
    // Rows ordered by (permaticker, date) strictly are unique; anything else is checked below.
    if (i > 0 && !(perm[i - 1] < p || (perm[i - 1] === p && day[i - 1] < d))) ordered = false;
  }
  if (!ordered) {
    const seen = new Set<number>();
    for (let i = 0; i < n; i++) {
      // A permaticker and an epoch day fit one exact double key (days < 2^20 in magnitude).
      const key = perm[i] * 2 ** 21 + (day[i] + 2 ** 20);
      if (seen.has(key)) throw new Error(`prices row ${i + 1}: a second price of permaticker ${perm[i]} on ${rows[i].date}.`);
      seen.add(key);
    }
  }
  const [open, high, low, close, volume, closeUnadj, tri] = doubles;
  const keys = [...ranges.keys()];
  return {
    table: [
      { kind: 'integer', values: perm },
      { kind: 'date', values: day },
      { kind: 'double', values: open },
      { kind: 'double', values: high },
      { kind: 'double', values: low },
      { kind: 'double', values: close },
      { kind: 'double', values: volume },
      { kind: 'double', values: closeUnadj },
      { kind: 'double', values: tri },
    ],
    ranges: { perm: keys, first: keys.map((k) => ranges.get(k)!.first), last: keys.map((k) => ranges.get(k)!.last) },
  };
}

const ACTION_COLUMNS: ColumnSpec<CorporateActionRecord>[] = [
  { name: 'permaticker', kind: 'integer', get: (r) => r.permaticker },
  { name: 'date', kind: 'date', get: (r) => r.date },
  { name: 'action', kind: 'varchar', get: (r) => r.action },
  { name: 'value', kind: 'double', get: (r) => r.value },
  { name: 'detail', kind: 'varchar', get: (r) => r.detail },
  { name: 'source', kind: 'varchar', get: (r) => r.source },
];

const FACT_COLUMNS: ColumnSpec<FactRecord>[] = [
  { name: 'permaticker', kind: 'integer', get: (r) => r.permaticker },
  { name: 'concept', kind: 'varchar', get: (r) => r.concept },
  { name: 'value', kind: 'double', get: (r) => r.value },
  { name: 'unit', kind: 'varchar', get: (r) => r.unit },
  { name: 'period_start', kind: 'date', get: (r) => r.periodStart },
  { name: 'period_end', kind: 'date', get: (r) => r.periodEnd },
  { name: 'fiscal_year', kind: 'integer', get: (r) => r.fiscalYear },
  { name: 'fiscal_period', kind: 'varchar', get: (r) => r.fiscalPeriod },
  { name: 'form', kind: 'varchar', get: (r) => r.form },
  { name: 'filed', kind: 'date', get: (r) => r.filed },
  { name: 'accession', kind: 'varchar', get: (r) => r.accession },
  { name: 'source', kind: 'varchar', get: (r) => r.source },
  { name: 'source_tag', kind: 'varchar', get: (r) => r.sourceTag },
];

function checkKeys(permatickers: number[]): void {
  for (const p of permatickers) {
    if (!Number.isInteger(p)) throw new Error(`permaticker must be an integer, got ${String(p)}`);
  }
}

/** Rows must belong to the permatickers being replaced, or a re-run would duplicate them. */
function checkBelong(what: string, permatickers: number[], rows: readonly { permaticker: number }[]): void {
  const keys = new Set(permatickers);
  for (let i = 0; i < rows.length; i++) {
    if (!keys.has(rows[i].permaticker)) {
      throw new Error(`${what} row ${i + 1} has permaticker ${rows[i].permaticker}, which is not among the permatickers being replaced.`);
    }
  }
}

// Deleting through a semi-join keeps one hash probe per row however many keys are replaced.
async function deleteFor(connection: DuckDBConnection, table: string, permatickers: number[], source?: string): Promise<void> {
  if (permatickers.length === 0) return;
  const keys = listValue(permatickers);
  if (source === undefined) {
    await connection.run(`DELETE FROM ${table} WHERE permaticker IN (SELECT unnest($1::INTEGER[]))`, [keys]);
  } else {
    await connection.run(`DELETE FROM ${table} WHERE source = $2 AND permaticker IN (SELECT unnest($1::INTEGER[]))`, [keys, source]);
  }
}

/** The contract plus batch forms that bulk loaders (the demo) use to avoid per-security calls. */
export type BulkMarketWriteTx = MarketWriteTx & {
  /** Replaces the ticker history of all these permatickers at once. */
  replaceTickerHistories(permatickers: number[], rows: TickerPeriodRecord[]): Promise<void>;
};

function txOn(connection: DuckDBConnection): BulkMarketWriteTx {
  return {
    async upsertSecurities(rows) {
      const keys = rows.map((r) => r.permaticker);
      checkKeys(keys);
      if (new Set(keys).size !== keys.length) throw new Error('upsertSecurities: the same permaticker appears twice.');
      await deleteFor(connection, 'securities', keys);
      await appendRows(connection, 'securities', SECURITY_COLUMNS, rows);
    },
    async fillSecurityGaps(rows) {
      const keys = rows.map((r) => r.permaticker);
      checkKeys(keys);
      if (new Set(keys).size !== keys.length) throw new Error('fillSecurityGaps: the same permaticker appears twice.');
      if (rows.length === 0) return;
      await connection.run(`CREATE TEMP TABLE IF NOT EXISTS securities_gaps AS SELECT * FROM securities LIMIT 0`);
      await appendRows(connection, 'securities_gaps', SECURITY_COLUMNS, rows, 'securities');
      await connection.run(
        `UPDATE securities SET
            name = CASE WHEN securities.name IS NULL OR securities.name = '' OR securities.name = securities.ticker THEN g.name ELSE securities.name END,
            exchange = coalesce(securities.exchange, g.exchange),
            category = coalesce(securities.category, g.category),
            sector = coalesce(securities.sector, g.sector),
            industry = coalesce(securities.industry, g.industry),
            cik = coalesce(securities.cik, g.cik),
            description = coalesce(securities.description, g.description)
           FROM securities_gaps AS g
          WHERE securities.permaticker = g.permaticker`,
      );
      await connection.run(`DELETE FROM securities_gaps`);
    },
    async replaceTickerHistory(permaticker, rows) {
      checkKeys([permaticker]);
      checkBelong('ticker_history', [permaticker], rows);
      await deleteFor(connection, 'ticker_history', [permaticker]);
      await appendRows(connection, 'ticker_history', TICKER_COLUMNS, rows);
    },
    async replacePrices(permatickers, rows) {
      checkKeys(permatickers);
      checkBelong('prices', permatickers, rows);
      const columns = priceColumns(rows);
      await deleteFor(connection, 'prices', permatickers);
      await appendTypedColumns(connection, 'prices', columns.table);
      // A security's price range follows its stored prices, whichever source created its row
      // (a price file extending a company the SEC import created must move its last price date).
      if (columns.ranges.perm.length > 0)
        await connection.run(
          `UPDATE securities SET first_price_date = r.first, last_price_date = r.last
             FROM (SELECT unnest($1::INTEGER[]) AS permaticker,
                          DATE '1970-01-01' + unnest($2::INTEGER[]) AS first,
                          DATE '1970-01-01' + unnest($3::INTEGER[]) AS last) r
            WHERE securities.permaticker = r.permaticker`,
          [listValue(columns.ranges.perm), listValue(columns.ranges.first), listValue(columns.ranges.last)],
        );
    },
    async replaceTickerHistories(permatickers, rows) {
      checkKeys(permatickers);
      checkBelong('ticker_history', permatickers, rows);
      await deleteFor(connection, 'ticker_history', permatickers);
      await appendRows(connection, 'ticker_history', TICKER_COLUMNS, rows);
    },
    async replaceActions(permatickers, source, rows) {
      checkKeys(permatickers);
      checkBelong('corporate_actions', permatickers, rows);
      await deleteFor(connection, 'corporate_actions', permatickers, source);
      await appendRows(connection, 'corporate_actions', ACTION_COLUMNS, rows);
    },
    async replaceFacts(permatickers, source, rows) {
      checkKeys(permatickers);
      checkBelong('facts', permatickers, rows);
      await deleteFor(connection, 'facts', permatickers, source);
      await appendRows(connection, 'facts', FACT_COLUMNS, rows);
    },
    async mergePrices(permatickers, rows) {
      checkKeys(permatickers);
      checkBelong('prices', permatickers, rows);
      if (permatickers.length === 0) return;
      await connection.run(`CREATE TEMP TABLE IF NOT EXISTS prices_staging AS SELECT * FROM prices LIMIT 0`);
      await appendTypedColumns(connection, 'prices_staging', priceColumns(rows).table);
      await connection.run(`DELETE FROM prices WHERE (permaticker, date) IN (SELECT (permaticker, date) FROM prices_staging)`);
      await connection.run(`INSERT INTO prices SELECT * FROM prices_staging`);
      // The price range follows the stored prices (an upsert of the security may have reset it).
      await connection.run(
        `UPDATE securities SET first_price_date = r.first, last_price_date = r.last
           FROM (SELECT permaticker, min(date) AS first, max(date) AS last FROM prices
                  WHERE permaticker IN (SELECT unnest($1::INTEGER[])) GROUP BY permaticker) r
          WHERE securities.permaticker = r.permaticker`,
        [listValue(permatickers)],
      );
      await connection.run(`DELETE FROM prices_staging`);
    },
    async mergeActions(source, rows) {
      if (rows.length === 0) return;
      checkKeys([...new Set(rows.map((r) => r.permaticker))]);
      await connection.run(`CREATE TEMP TABLE IF NOT EXISTS actions_staging AS SELECT * FROM corporate_actions LIMIT 0`);
      await appendRows(connection, 'actions_staging', ACTION_COLUMNS, rows, 'corporate_actions');
      await connection.run(
        `DELETE FROM corporate_actions WHERE source = $1 AND (permaticker, date, action) IN (SELECT (permaticker, date, action) FROM actions_staging)`,
        [source],
      );
      await connection.run(`INSERT INTO corporate_actions SELECT * FROM actions_staging`);
      await connection.run(`DELETE FROM actions_staging`);
    },
    async mergeFacts(source, rows) {
      if (rows.length === 0) return;
      checkKeys([...new Set(rows.map((r) => r.permaticker))]);
      await connection.run(`CREATE TEMP TABLE IF NOT EXISTS facts_staging AS SELECT * FROM facts LIMIT 0`);
      await appendRows(connection, 'facts_staging', FACT_COLUMNS, rows, 'facts');
      await connection.run(
        `DELETE FROM facts f WHERE f.source = $1 AND EXISTS (
           SELECT 1 FROM facts_staging s WHERE s.permaticker = f.permaticker AND s.concept = f.concept AND s.period_end = f.period_end
              AND s.filed = f.filed AND s.period_start IS NOT DISTINCT FROM f.period_start AND s.fiscal_period IS NOT DISTINCT FROM f.fiscal_period)`,
        [source],
      );
      await connection.run(`INSERT INTO facts SELECT * FROM facts_staging`);
      await connection.run(`DELETE FROM facts_staging`);
    },
  };
}

/** A MarketWriter bound to an open store, plus the means to publish or discard the work. */
export type MarketWriterHandle = Omit<MarketWriter, 'transaction'> & {
  readonly store: WritableStore;
  transaction<T>(work: (tx: BulkMarketWriteTx) => Promise<T>): Promise<T>;
  /** Makes the work visible to readers (atomic rename over the published file). */
  publish(options?: PublishOptions): Promise<void>;
  /** Throws the work away; the published file is untouched. */
  discard(): Promise<void>;
};

export function createMarketWriter(store: WritableStore, clock: () => Date = () => new Date()): MarketWriterHandle {
  const connection = store.connection;
  let queue: Promise<unknown> = Promise.resolve();
  let inTransaction = false;
  const startedAt = clock().toISOString();

  // Transactions run one after another: DuckDB has one transaction per connection, and
  // interleaving two importers' statements would mix their work.
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    store,
    transaction<T>(work: (tx: BulkMarketWriteTx) => Promise<T>): Promise<T> {
      if (inTransaction) return Promise.reject(new Error('MarketWriter.transaction cannot be nested.'));
      return serial(async () => {
        inTransaction = true;
        await connection.run('BEGIN TRANSACTION');
        try {
          const result = await work(txOn(connection));
          await connection.run('COMMIT');
          return result;
        } catch (e) {
          await connection.run('ROLLBACK').catch(() => undefined);
          throw e;
        } finally {
          inTransaction = false;
        }
      });
    },
    async nextPermaticker() {
      const [row] = await queryRows<{ next: number }>(
        connection,
        'SELECT (coalesce(max(permaticker), 0) + 1)::INTEGER AS next FROM securities',
      );
      return row.next;
    },
    async findPermaticker(by) {
      if (by.cik) {
        const rows = await queryRows<{ permaticker: number }>(
          connection,
          `SELECT permaticker FROM securities WHERE cik = $1 ORDER BY is_delisted, last_price_date DESC NULLS LAST, permaticker LIMIT 1`,
          [by.cik],
        );
        if (rows.length > 0) return rows[0].permaticker;
      }
      if (by.ticker) {
        const ticker = by.ticker.toUpperCase();
        const rows = await queryRows<{ permaticker: number }>(
          connection,
          `SELECT permaticker FROM (
             SELECT permaticker, 0 AS rank, is_delisted, last_price_date AS last FROM securities WHERE upper(ticker) = $1
             UNION ALL
             SELECT permaticker, 1 AS rank, true, end_date FROM ticker_history WHERE upper(ticker) = $1
           ) ORDER BY rank, is_delisted, last DESC NULLS FIRST, permaticker LIMIT 1`,
          [ticker],
        );
        if (rows.length > 0) return rows[0].permaticker;
      }
      return null;
    },
    pricedSecurities() {
      return serial(() =>
        queryRows<PricedSecurity>(
          connection,
          `SELECT permaticker, ticker, strftime(first_price_date, '%Y-%m-%d') AS "firstPriceDate",
                  strftime(last_price_date, '%Y-%m-%d') AS "lastPriceDate", is_delisted AS "isDelisted"
             FROM securities
            WHERE NOT is_demo AND first_price_date IS NOT NULL AND last_price_date IS NOT NULL
            ORDER BY ticker, permaticker`,
        ),
      );
    },
    filingSecurities() {
      return serial(() =>
        queryRows<FilingSecurity>(
          connection,
          `SELECT s.permaticker, s.ticker, s.cik,
                  (SELECT strftime(max(f.filed), '%Y-%m-%d') FROM facts f WHERE f.permaticker = s.permaticker AND f.source = 'sec') AS "lastFiled"
             FROM securities s
            WHERE NOT s.is_demo AND s.cik IS NOT NULL
            ORDER BY s.cik, s.permaticker`,
        ),
      );
    },
    sourceSecurities(source) {
      return serial(async () => {
        const tickers = (
          await queryRows<{ ticker: string }>(
            connection,
            `SELECT ticker FROM securities WHERE NOT is_demo AND source = $1 ORDER BY ticker`,
            [source],
          )
        ).map((r) => r.ticker);
        const [row] = await queryRows<{ newest: string | null }>(
          connection,
          `WITH mine AS (SELECT permaticker FROM securities WHERE NOT is_demo AND source = $1)
           SELECT strftime(greatest(
             (SELECT max(date) FROM prices WHERE permaticker IN (SELECT permaticker FROM mine)),
             (SELECT max(filed) FROM facts WHERE source = $1 AND permaticker IN (SELECT permaticker FROM mine)),
             (SELECT max(date) FROM corporate_actions WHERE source = $1 AND permaticker IN (SELECT permaticker FROM mine))), '%Y-%m-%d') AS newest`,
          [source],
        );
        return { tickers, newest: (row?.newest ?? null) as IsoDate | null };
      });
    },
    finish(source, detail) {
      return serial(async () => {
        const snapshotId = await refreshSnapshotId(connection);
        await connection.run(`INSERT INTO import_runs VALUES ($1, $2, $3, $4, 'done', $5)`, [
          randomUUID(),
          source,
          startedAt,
          clock().toISOString(),
          detail ?? null,
        ]);
        return { snapshotId };
      });
    },
    publish: (options) => serial(() => store.publish(options)),
    discard: () => serial(() => store.discard()),
  };
}

/** Opens a writer on the market file (a private copy, published by `publish()`). */
export async function openMarketWriter(file: string = config().marketDb, options: OpenWritableOptions = {}): Promise<MarketWriterHandle> {
  return createMarketWriter(await openWritableStore(file, options));
}

/** Runs `work` with a writer; publishes when it succeeds, discards everything when it throws. */
export async function withMarketWriter<T>(
  file: string,
  options: OpenWritableOptions,
  work: (writer: MarketWriterHandle) => Promise<T>,
): Promise<T> {
  const writer = await openMarketWriter(file, options);
  try {
    const result = await work(writer);
    await writer.publish();
    return result;
  } catch (e) {
    await writer.discard();
    throw e;
  }
}

import { randomUUID } from 'node:crypto';
import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { config } from '../../config.server';
import type { IsoDate } from '../../dates';
import type {
  CorporateActionRecord,
  MarketWriter,
  MarketWriteTx,
  PricedSecurity,
  FilingSecurity,
  SecurityRecord,
  TickerPeriodRecord,
} from './records';
import { appendCodedRows, appendRows, appendTypedColumns, type ColumnSpec } from './bulk-append.server';
import { FACT_COLUMNS, priceColumns, type PriceColumns } from './market-columns';
import type { CodedRows, TypedColumn } from './typed-columns';
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

const ACTION_COLUMNS: ColumnSpec<CorporateActionRecord>[] = [
  { name: 'permaticker', kind: 'integer', get: (r) => r.permaticker },
  { name: 'date', kind: 'date', get: (r) => r.date },
  { name: 'action', kind: 'varchar', get: (r) => r.action },
  { name: 'value', kind: 'double', get: (r) => r.value },
  { name: 'detail', kind: 'varchar', get: (r) => r.detail },
  { name: 'source', kind: 'varchar', get: (r) => r.source },
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

/** The contract plus batch forms that bulk loaders (the demo) use to avoid per-security calls and row objects. */
export type BulkMarketWriteTx = MarketWriteTx & {
  /** Replaces the ticker history of all these permatickers at once. */
  replaceTickerHistories(permatickers: number[], rows: TickerPeriodRecord[]): Promise<void>;
  /** replacePrices with the rows already as columns (market-columns.ts `priceColumns`). */
  replacePriceColumns(permatickers: number[], columns: PriceColumns): Promise<void>;
  /** replaceFacts with the rows already coded (typed-columns.ts `codeRows` with FACT_COLUMNS). */
  replaceCodedFacts(permatickers: number[], source: string, facts: CodedRows): Promise<void>;
};

/** Where the facts table's source column is (FACT_COLUMNS). */
const FACT_SOURCE_COLUMN = FACT_COLUMNS.findIndex((c) => c.name === 'source');

/** A permaticker column must hold only the permatickers being replaced, as checkBelong checks rows. */
function checkColumnBelongs(what: string, permatickers: number[], column: TypedColumn | undefined): void {
  if (column?.kind !== 'integer') throw new Error(`${what}: the first column must be the permatickers.`);
  const keys = new Set(permatickers);
  const values = column.values;
  let last = Number.NaN;
  for (let i = 0; i < values.length; i++) {
    if (values[i] === last && column.nulls?.[i] !== 1) continue;
    last = values[i];
    if (!keys.has(last) || column.nulls?.[i] === 1)
      throw new Error(`${what} row ${i + 1} has permaticker ${last}, which is not among the permatickers being replaced.`);
  }
}

function txOn(connection: DuckDBConnection): BulkMarketWriteTx {
  const replacePriceColumns = async (permatickers: number[], columns: PriceColumns) => {
    checkKeys(permatickers);
    checkColumnBelongs('prices', permatickers, columns.table[0]);
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
  };
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
      await replacePriceColumns(permatickers, priceColumns(rows));
    },
    replacePriceColumns,
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
    async replaceCodedFacts(permatickers, source, facts) {
      checkKeys(permatickers);
      if (facts.kinds.join() !== FACT_COLUMNS.map((c) => c.kind).join())
        throw new Error('replaceCodedFacts: the rows are not coded as facts.');
      checkColumnBelongs('facts', permatickers, facts.columns[0]);
      const sources = facts.texts[facts.kinds.slice(0, FACT_SOURCE_COLUMN).filter((k) => k === 'varchar').length];
      if (sources.some((v) => v !== source)) throw new Error(`replaceCodedFacts: facts of another source than ${source}.`);
      await deleteFor(connection, 'facts', permatickers, source);
      await appendCodedRows(connection, 'facts', facts);
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

async function inTransactionOn<T>(connection: DuckDBConnection, work: (tx: BulkMarketWriteTx) => Promise<T>): Promise<T> {
  await connection.run('BEGIN TRANSACTION');
  try {
    const result = await work(txOn(connection));
    await connection.run('COMMIT');
    return result;
  } catch (e) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/** A MarketWriter bound to an open store, plus the means to publish or discard the work. */
export type MarketWriterHandle = Omit<MarketWriter, 'transaction'> & {
  readonly store: WritableStore;
  transaction<T>(work: (tx: BulkMarketWriteTx) => Promise<T>): Promise<T>;
  /**
   * A transaction on the store's second connection, which runs alongside `transaction`s (and one
   * after another among themselves): for a bulk loader whose batches split into tables written
   * apart, as the demo's prices and facts are. It must not write rows a `transaction` writes.
   */
  sideTransaction<T>(work: (tx: BulkMarketWriteTx) => Promise<T>): Promise<T>;
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

  let sideQueue: Promise<unknown> = Promise.resolve();

  return {
    store,
    transaction<T>(work: (tx: BulkMarketWriteTx) => Promise<T>): Promise<T> {
      if (inTransaction) return Promise.reject(new Error('MarketWriter.transaction cannot be nested.'));
      return serial(async () => {
        inTransaction = true;
        try {
          return await inTransactionOn(connection, work);
        } finally {
          inTransaction = false;
        }
      });
    },
    sideTransaction<T>(work: (tx: BulkMarketWriteTx) => Promise<T>): Promise<T> {
      const run = async () => inTransactionOn(await store.sideConnection(), work);
      const next = sideQueue.then(run, run);
      sideQueue = next.catch(() => undefined);
      return next;
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
        await store.endCallerThread();
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

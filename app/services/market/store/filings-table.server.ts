import type { DuckDBConnection } from '@duckdb/node-api';

// The filings of every company, one row per (company, form, filed date, accession): what the
// company pages and the home page list. Derived from the facts table (one row per fact, tens of
// millions for a large universe) whenever the derived data is rebuilt after an import, so a page
// reads a few hundred thousand rows sorted by filed date instead of grouping every fact.

export const COMPANY_FILINGS_TABLE = 'company_filings';

export async function buildFilingsTable(connection: DuckDBConnection): Promise<void> {
  await connection.run(
    `CREATE OR REPLACE TABLE ${COMPANY_FILINGS_TABLE} AS
       SELECT permaticker, form, filed, accession, max(period_end) AS period_end,
              max(fiscal_year) AS fiscal_year,
              CASE WHEN bool_or(fiscal_period = 'FY') THEN 'FY' ELSE max(fiscal_period) END AS fiscal_period
         FROM facts GROUP BY permaticker, form, filed, accession
        ORDER BY filed, permaticker`,
  );
}

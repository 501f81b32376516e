import { notFound } from '../http/errors';
import { readMarket, type MarketReadOptions } from '../market/store/read.server';
import { COMPANY_FILINGS_TABLE } from '../market/store/filings-table.server';
import { storeHasTable } from '../market/store/tables.server';
import type { SecurityColumns } from '../market/store/security';

// Companies in the market store: search, profiles and filings. A ticker is not an identity:
// it resolves to the security holding it now, or, when nobody does, to its latest holder.

export type CompanySummary = Pick<
  SecurityColumns,
  'permaticker' | 'ticker' | 'name' | 'exchange' | 'sector' | 'industry' | 'is_delisted' | 'is_demo'
>;

export type CompanySearchHit = CompanySummary & {
  /** Why it matched: ticker, former_ticker, ticker_prefix, name_prefix, name_word, name, ticker_contains. */
  match: string;
};

export type Filing = {
  form: string | null;
  filed: string;
  accession: string | null;
  period_end: string;
  fiscal_year: number | null;
  fiscal_period: string | null;
  /** The filing index on SEC EDGAR (null for demo data and facts without accession). */
  url: string | null;
};

export type CompanyProfile = SecurityColumns & {
  tickers: { ticker: string; start_date: string | null; end_date: string | null }[];
  latest_price: { date: string; close: number; close_unadj: number | null; volume: number | null } | null;
  filings: Filing[];
};

export const SEARCH_LIMIT_MAX = 100;

const SUMMARY_COLUMNS = `s.permaticker, s.ticker, s.name, s.exchange, s.sector, s.industry, s.is_delisted, s.is_demo`;

/**
 * Search by ticker or name. Ranking: exact ticker, former ticker, ticker prefix, name prefix,
 * a word of the name, anywhere in the name, anywhere in the ticker; listed before delisted,
 * then the most recently traded.
 */
export async function searchCompanies(query: string, limit = 20, options: MarketReadOptions = {}): Promise<CompanySearchHit[]> {
  const q = query.trim();
  const n = Math.max(1, Math.min(SEARCH_LIMIT_MAX, Math.floor(limit)));
  const reader = await readMarket(options);
  if (q === '') {
    return reader.all<CompanySearchHit>(
      `SELECT ${SUMMARY_COLUMNS}, 'all' AS match FROM securities s ORDER BY s.is_delisted, s.ticker, s.permaticker LIMIT ${n}`,
    );
  }
  const rows = await reader.all<CompanySearchHit & { total?: unknown }>(`${RANKED_SEARCH} LIMIT ${n}`, [q]);
  return rows.map(({ total: _total, ...hit }) => hit);
}

// Every security matching a search text, best match first: an exact ticker, a former ticker, a
// ticker prefix, a name prefix, a word of the name, anywhere in the name, anywhere in the ticker.
const RANKED_SEARCH = `WITH former AS (
    SELECT DISTINCT permaticker FROM ticker_history WHERE upper(ticker) = upper($1)
  ),
  ranked AS (
    SELECT ${SUMMARY_COLUMNS}, s.last_price_date,
      CASE
        WHEN upper(s.ticker) = upper($1) THEN 0
        WHEN s.permaticker IN (SELECT permaticker FROM former) THEN 1
        WHEN starts_with(upper(s.ticker), upper($1)) THEN 2
        WHEN starts_with(lower(s.name), lower($1)) THEN 3
        WHEN contains(lower(s.name), ' ' || lower($1)) THEN 4
        WHEN contains(lower(s.name), lower($1)) THEN 5
        WHEN contains(upper(s.ticker), upper($1)) THEN 6
      END AS rank
    FROM securities s
  )
  SELECT permaticker, ticker, name, exchange, sector, industry, is_delisted, is_demo,
    ['ticker', 'former_ticker', 'ticker_prefix', 'name_prefix', 'name_word', 'name', 'ticker_contains'][rank + 1] AS match,
    count(*) OVER () AS total
  FROM ranked WHERE rank IS NOT NULL
  ORDER BY rank, is_delisted, last_price_date DESC NULLS LAST, ticker, permaticker`;

export type CompanySearchPage = { hits: CompanySearchHit[]; total: number; page: number; pageCount: number };

/** One page of a search's matches with the true number of them (the company search page). */
export async function searchCompaniesPage(
  query: string,
  page: number,
  pageSize = 50,
  options: MarketReadOptions = {},
): Promise<CompanySearchPage> {
  const n = Math.max(1, Math.min(SEARCH_LIMIT_MAX, Math.floor(pageSize)));
  const p = Math.max(1, Math.min(100_000, Math.floor(page) || 1));
  const reader = await readMarket(options);
  const rows = await reader.all<CompanySearchHit & { total: number | bigint }>(`${RANKED_SEARCH} LIMIT ${n} OFFSET ${(p - 1) * n}`, [
    query.trim(),
  ]);
  let total = rows.length > 0 ? Number(rows[0].total) : 0;
  if (rows.length === 0 && p > 1) {
    // Past the last page: the total still comes from the first.
    const first = await reader.all<{ total: number | bigint }>(`${RANKED_SEARCH} LIMIT 1`, [query.trim()]);
    total = first.length > 0 ? Number(first[0].total) : 0;
  }
  const hits = rows.map(({ total: _total, ...hit }) => hit);
  return { hits, total, page: p, pageCount: Math.max(1, Math.ceil(total / n)) };
}

/** The permaticker an id names: a permaticker, a current ticker, or a former/latest holder's ticker. */
export async function resolveCompanyId(id: string, options: MarketReadOptions = {}): Promise<number | null> {
  const value = id.trim();
  if (value === '' || value.length > 32) return null;
  const reader = await readMarket(options);
  if (/^\d{1,9}$/.test(value)) {
    const rows = await reader.all<{ permaticker: number }>(`SELECT permaticker FROM securities WHERE permaticker = $1::INTEGER`, [value]);
    if (rows.length > 0) return rows[0].permaticker;
  }
  const rows = await reader.all<{ permaticker: number }>(
    `SELECT permaticker FROM (
       SELECT permaticker, is_delisted, last_price_date AS until FROM securities WHERE upper(ticker) = upper($1)
       UNION ALL
       SELECT h.permaticker, true, coalesce(h.end_date, s.last_price_date)
       FROM ticker_history h JOIN securities s USING (permaticker)
       WHERE upper(h.ticker) = upper($1) AND upper(s.ticker) <> upper($1)
     )
     ORDER BY is_delisted, until DESC NULLS LAST, permaticker DESC
     LIMIT 1`,
    [value],
  );
  return rows[0]?.permaticker ?? null;
}

/**
 * What a person typed into an "add a company" box: a ticker or permaticker first, otherwise the
 * best match of the company search by name ("Dorarford"). Null when nothing matches.
 */
export async function resolveCompanyText(text: string, options: MarketReadOptions = {}): Promise<number | null> {
  const exact = await resolveCompanyId(text, options);
  if (exact !== null || text.trim() === '') return exact;
  const [best] = await searchCompanies(text.slice(0, 100), 1, options);
  return best?.permaticker ?? null;
}

function filingUrl(cik: string | null, accession: string | null, isDemo: boolean): string | null {
  if (isDemo || !cik || !accession || !/^\d{10}-\d{2}-\d{6}$/.test(accession)) return null;
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replaceAll('-', '')}/${accession}-index.htm`;
}

/** Filings a company's facts came from, newest first (one row per form, filed date and accession). */
export async function recentFilings(permaticker: number, limit = 20, options: MarketReadOptions = {}): Promise<Filing[]> {
  const n = Math.max(1, Math.min(200, Math.floor(limit)));
  const reader = await readMarket(options);
  // The derived filings table holds exactly these groups; a store without it is grouped here.
  const grouped = (await storeHasTable(reader, COMPANY_FILINGS_TABLE))
    ? COMPANY_FILINGS_TABLE
    : `(SELECT permaticker, form, filed, accession, max(period_end) AS period_end, max(fiscal_year) AS fiscal_year,
          CASE WHEN bool_or(fiscal_period = 'FY') THEN 'FY' ELSE max(fiscal_period) END AS fiscal_period
        FROM facts WHERE permaticker = $1 GROUP BY permaticker, form, filed, accession)`;
  const rows = await reader.all<Omit<Filing, 'url'> & { cik: string | null; is_demo: boolean }>(
    `SELECT f.form, f.filed, f.accession, f.period_end, f.fiscal_year, f.fiscal_period, s.cik, s.is_demo
     FROM ${grouped} f JOIN securities s USING (permaticker)
     WHERE f.permaticker = $1
     ORDER BY f.filed DESC, f.accession DESC NULLS LAST
     LIMIT ${n}`,
    [permaticker],
  );
  return rows.map(({ cik, is_demo, ...f }) => ({ ...f, url: filingUrl(cik, f.accession, is_demo) }));
}

/** The profile of a company by ticker or permaticker; unknown ids are a 404. */
export async function getCompanyProfile(id: string, options: MarketReadOptions = {}): Promise<CompanyProfile> {
  const permaticker = await resolveCompanyId(id, options);
  if (permaticker === null) throw notFound(`Unknown company: ${id}`);
  const reader = await readMarket(options);
  const [security] = await reader.all<Omit<CompanyProfile, 'tickers' | 'latest_price' | 'filings'>>(
    `SELECT ${SUMMARY_COLUMNS}, s.category, s.cik, s.currency, s.description, s.first_price_date, s.last_price_date, s.source
     FROM securities s WHERE s.permaticker = $1`,
    [permaticker],
  );
  const tickers = await reader.all<CompanyProfile['tickers'][number]>(
    `SELECT ticker, start_date, end_date FROM ticker_history WHERE permaticker = $1 ORDER BY start_date NULLS FIRST, ticker`,
    [permaticker],
  );
  const [latest] = await reader.all<NonNullable<CompanyProfile['latest_price']>>(
    `SELECT date, close, close_unadj, volume FROM prices WHERE permaticker = $1 ORDER BY date DESC LIMIT 1`,
    [permaticker],
  );
  const filings = await recentFilings(permaticker, 10, options);
  return { ...security, tickers, latest_price: latest ?? null, filings };
}

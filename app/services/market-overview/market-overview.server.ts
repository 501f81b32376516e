import { addDays, addMonths, type IsoDate } from '../dates';
import { loadSnapshot } from '../metrics/snapshots.server';
import { readMarket, type MarketReadOptions } from '../market/store/read.server';
import type { SecurityColumns } from '../market/store/security';
import { equalWeightIndex, movers, sectorPerformance, type SectorRow } from './market-summary';
import { filingArchiveUrl } from '../market/sec-links';

// The home page's market overview, as of a date: equal-weighted universe over the past year,
// sector performance, biggest movers and the most recent filings.

export type Mover = Pick<SecurityColumns, 'permaticker' | 'ticker' | 'name' | 'is_demo'> & { price: number | null; change: number | null };
export type RecentFiling = Pick<SecurityColumns, 'permaticker' | 'ticker' | 'name' | 'is_demo'> & {
  form: string | null;
  filed: IsoDate;
  accession: string | null;
  url: string | null;
};

export type MarketOverview = {
  /** Last trading day on or before the requested date (null without data). */
  date: IsoDate | null;
  /** Date of the snapshot behind sectors and movers (a stored month-end for past dates). */
  snapshotDate: IsoDate | null;
  benchmark: { date: IsoDate; value: number }[];
  benchmarkReturn: number | null;
  sectors: SectorRow[];
  gainers: Mover[];
  losers: Mover[];
  filings: RecentFiling[];
  companies: number;
  hasDemo: boolean;
};

export async function marketOverview(asOf: IsoDate | null, options: MarketReadOptions = {}): Promise<MarketOverview> {
  const reader = await readMarket(options);
  const [last] = await reader.all<{ date: IsoDate | null }>(
    `SELECT max(date) AS date FROM prices ${asOf ? 'WHERE date <= $1::DATE' : ''}`,
    asOf ? [asOf] : [],
  );
  const date = last?.date ?? null;
  const empty: MarketOverview = {
    date,
    snapshotDate: null,
    benchmark: [],
    benchmarkReturn: null,
    sectors: [],
    gainers: [],
    losers: [],
    filings: [],
    companies: 0,
    hasDemo: false,
  };
  if (!date) return empty;
  const from = addDays(addMonths(date, -12), 1);
  const returns = await reader.all<{ date: IsoDate; ret: number | null }>(
    `WITH r AS (
       SELECT date, coalesce(tri, close) / lag(coalesce(tri, close)) OVER (PARTITION BY permaticker ORDER BY date) - 1 AS ret
         FROM prices WHERE date >= $1::DATE - INTERVAL 10 DAY AND date <= $2::DATE
     )
     SELECT date, avg(ret) AS ret FROM r WHERE date >= $1::DATE AND ret IS NOT NULL AND isfinite(ret) GROUP BY date ORDER BY date`,
    [from, date],
  );
  const benchmark = equalWeightIndex(returns);
  const benchmarkReturn = benchmark.length > 1 ? benchmark[benchmark.length - 1].value / 100 - 1 : null;

  const securities = await reader.all<Pick<SecurityColumns, 'permaticker' | 'ticker' | 'name' | 'sector' | 'is_demo'>>(
    `SELECT permaticker, ticker, name, sector, is_demo FROM securities`,
  );
  const byId = new Map(securities.map((s) => [s.permaticker, s]));
  const snap = await loadSnapshot(asOf ?? 'latest', {
    exact: false,
    marketDb: options.file,
    metrics: ['price', 'price_change_1d', 'ret_1m', 'ret_ytd', 'ret_12m'],
  });
  const rows = Array.from(snap.permatickers, (p, i) => ({ p, i }));
  const val = (id: string, i: number) => {
    const v = snap.values[id][i];
    return Number.isFinite(v) ? v : null;
  };
  const sectors = sectorPerformance(
    rows.map(({ p, i }) => ({
      sector: byId.get(p)?.sector ?? null,
      ret1m: val('ret_1m', i),
      retYtd: val('ret_ytd', i),
      ret1y: val('ret_12m', i),
    })),
  );
  const moverRows = rows.map(({ p, i }) => {
    const s = byId.get(p);
    return {
      key: s?.ticker ?? String(p),
      value: val('price_change_1d', i),
      permaticker: p,
      ticker: s?.ticker ?? String(p),
      name: s?.name ?? '',
      is_demo: s?.is_demo ?? false,
      price: val('price', i),
    };
  });
  const m = movers(moverRows, 5);
  const toMover = (r: (typeof moverRows)[number]): Mover => ({
    permaticker: r.permaticker,
    ticker: r.ticker,
    name: r.name,
    is_demo: r.is_demo,
    price: r.price,
    change: r.value,
  });

  const filings = await reader.all<Omit<RecentFiling, 'url'> & { cik: string | null }>(
    `SELECT f.permaticker, s.ticker, s.name, f.form, f.filed, f.accession, s.cik, s.is_demo
       FROM (SELECT permaticker, form, filed, accession FROM facts WHERE filed < $1::DATE GROUP BY permaticker, form, filed, accession) f
       JOIN securities s USING (permaticker)
      ORDER BY f.filed DESC, s.ticker LIMIT 10`,
    // Known from the day after filing: as of D, filings dated before D.
    [asOf ?? date],
  );
  return {
    date,
    snapshotDate: snap.date,
    benchmark,
    benchmarkReturn,
    sectors,
    gainers: m.gainers.map(toMover),
    losers: m.losers.map(toMover),
    filings: filings.map(({ cik, ...f }) => ({ ...f, url: filingArchiveUrl(cik, f.accession, f.is_demo) })),
    companies: snap.permatickers.length,
    hasDemo: securities.some((s) => s.is_demo),
  };
}

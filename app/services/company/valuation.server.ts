import { addMonths, type IsoDate } from '../dates';
import { iterateSnapshots } from '../metrics/snapshots.server';
import type { CompanyHeader } from './company-pages.server';
import { readMarket, type MarketReadOptions } from '../market/store/read.server';
import { storeTables } from '../market/store/tables.server';
import { cachedAnswer } from '../market/store/answer-cache.server';
import { meaningfulMultiple, sectorMedian, trailingAverage, VALUATION_METRICS, type ValuationMetric } from './valuation-history';
import { readValuationPanel, SECTOR_MEDIANS_TABLE, VALUATION_HISTORY_TABLE } from './valuation-panel.server';

// Valuation through time: month-end point-in-time snapshots (the same ones the screener and
// backtests read), the company's value and its sector's median on each date. Read from the
// valuation panel built with the derived data (valuation-panel.server.ts); a store without it
// is computed from the snapshots here.

export type ValuationSeries = {
  metric: ValuationMetric;
  points: { date: IsoDate; company: number | null; sectorMedian: number | null }[];
  current: number | null;
  fiveYearAverage: number | null;
  sectorMedian: number | null;
};

export type Valuation = { asOf: IsoDate | null; sector: string | null; series: ValuationSeries[] };

const YEARS_SHOWN = 10;

function indexOf(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] === value) return mid;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

type Points = Map<ValuationMetric, ValuationSeries['points']>;

/** The valuation tab's data, kept per store version (answer-cache.server.ts). Shared: do not mutate. */
export async function companyValuation(company: CompanyHeader, asOf: IsoDate | null, options: MarketReadOptions = {}): Promise<Valuation> {
  const reader = await readMarket(options);
  return cachedAnswer(reader.file, ['valuation', company.permaticker, asOf], () => readValuation(company, asOf, options));
}

async function readValuation(company: CompanyHeader, asOf: IsoDate | null, options: MarketReadOptions): Promise<Valuation> {
  const end = asOf && company.last_price_date && asOf < company.last_price_date ? asOf : company.last_price_date;
  if (!end) return { asOf: null, sector: company.sector, series: [] };
  const from = addMonths(end, -12 * YEARS_SHOWN);
  const reader = await readMarket(options);
  const tables = await storeTables(reader);
  const collected =
    tables.has(VALUATION_HISTORY_TABLE) && tables.has(SECTOR_MEDIANS_TABLE)
      ? await fromPanel(company, from, end, options)
      : await fromSnapshots(company, from, end, options);
  return valuationOf(company, collected);
}

async function fromPanel(company: CompanyHeader, from: IsoDate, to: IsoDate, options: MarketReadOptions): Promise<Points> {
  const { company: rows, medians } = await readValuationPanel(await readMarket(options), company.permaticker, company.sector, from, to);
  const collected: Points = new Map(VALUATION_METRICS.map((m) => [m, []]));
  for (const row of rows) {
    const med = medians.get(row.date);
    for (const m of VALUATION_METRICS)
      collected.get(m)!.push({ date: row.date, company: meaningfulMultiple(m, row[m]), sectorMedian: med?.[m] ?? null });
  }
  return collected;
}

/** The same from the month-end snapshots: what the panel stores, for a store built without it. */
export async function fromSnapshots(company: CompanyHeader, from: IsoDate, to: IsoDate, options: MarketReadOptions = {}): Promise<Points> {
  const reader = await readMarket(options);
  const peers = new Set(
    (
      await reader.all<{ permaticker: number }>(`SELECT permaticker FROM securities WHERE sector IS NOT DISTINCT FROM $1`, [company.sector])
    ).map((r) => r.permaticker),
  );
  const collected: Points = new Map(VALUATION_METRICS.map((m) => [m, []]));
  for await (const snap of iterateSnapshots({ marketDb: options.file, from, to, frequency: 'month_end', metrics: VALUATION_METRICS })) {
    const at = indexOf(snap.permatickers, company.permaticker);
    if (at < 0) continue;
    const peerRows: number[] = [];
    for (let i = 0; i < snap.permatickers.length; i++) if (peers.has(snap.permatickers[i])) peerRows.push(i);
    for (const m of VALUATION_METRICS) {
      const col = snap.values[m];
      collected.get(m)!.push({
        date: snap.date,
        company: meaningfulMultiple(m, col[at]),
        sectorMedian: sectorMedian(
          m,
          peerRows.map((i) => col[i]),
        ),
      });
    }
  }
  return collected;
}

function valuationOf(company: CompanyHeader, collected: Points): Valuation {
  const series = VALUATION_METRICS.map((metric) => {
    const points = collected.get(metric)!;
    const last = points[points.length - 1];
    return {
      metric,
      points,
      current: last?.company ?? null,
      fiveYearAverage: last
        ? trailingAverage(
            points.map((p) => ({ date: p.date, value: p.company })),
            last.date,
            5,
          )
        : null,
      sectorMedian: last?.sectorMedian ?? null,
    };
  });
  return { asOf: series[0]?.points.at(-1)?.date ?? null, sector: company.sector, series };
}

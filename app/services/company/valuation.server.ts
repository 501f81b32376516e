import { addMonths, type IsoDate } from '../dates';
import { iterateSnapshots } from '../metrics/snapshots.server';
import type { CompanyHeader } from './company-pages.server';
import { readMarket, type MarketReadOptions } from '../market/store/read.server';
import { median } from '../stats';
import { meaningfulMultiple, trailingAverage, VALUATION_METRICS, type ValuationMetric } from './valuation-history';

// Valuation through time: month-end point-in-time snapshots (the same ones the screener and
// backtests read), the company's value and its sector's median on each date.

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

export async function companyValuation(company: CompanyHeader, asOf: IsoDate | null, options: MarketReadOptions = {}): Promise<Valuation> {
  const end = asOf && company.last_price_date && asOf < company.last_price_date ? asOf : company.last_price_date;
  if (!end) return { asOf: null, sector: company.sector, series: [] };
  const reader = await readMarket(options);
  const peers = new Set(
    (
      await reader.all<{ permaticker: number }>(`SELECT permaticker FROM securities WHERE sector IS NOT DISTINCT FROM $1`, [company.sector])
    ).map((r) => r.permaticker),
  );
  const collected = new Map<ValuationMetric, ValuationSeries['points']>(VALUATION_METRICS.map((m) => [m, []]));
  for await (const snap of iterateSnapshots({
    marketDb: options.file,
    from: addMonths(end, -12 * YEARS_SHOWN),
    to: end,
    frequency: 'month_end',
    metrics: VALUATION_METRICS,
  })) {
    const at = indexOf(snap.permatickers, company.permaticker);
    if (at < 0) continue;
    const peerRows: number[] = [];
    for (let i = 0; i < snap.permatickers.length; i++) if (peers.has(snap.permatickers[i])) peerRows.push(i);
    for (const m of VALUATION_METRICS) {
      const col = snap.values[m];
      collected.get(m)!.push({
        date: snap.date,
        company: meaningfulMultiple(m, col[at]),
        sectorMedian: median(peerRows.map((i) => meaningfulMultiple(m, col[i]))),
      });
    }
  }
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

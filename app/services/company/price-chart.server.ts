import { addDays, type IsoDate } from '../dates';
import { cachedAnswer } from '../market/store/answer-cache.server';
import { readMarket, type MarketReadOptions } from '../market/store/read.server';
import { resolveCompanyId, resolveCompanyText } from './companies.server';
import { companyHeader, type CompanyHeader } from './company-pages.server';
import { movingAverage, rangeStart, RANGES, type Range } from './price-ranges';
import {
  alignedPercent,
  BASES,
  chartHref,
  chooseSampling,
  MAX_COMPARE_TOKENS,
  MAX_COMPARISONS,
  MAX_VOLUME_BARS,
  onBasis,
  parseCompareList,
  percentFrom,
  sampleRows,
  thinIndices,
  type Basis,
  type BasisPoint,
  type ChartLinkQuery,
  type Sampling,
  type StoredPrice,
  type TableRow,
} from './price-chart';

// The Chart tab (/company/{id}/chart): one read of the range's closes, volumes and total-return
// index for the company and up to five comparisons, shaped by price-chart.ts and kept per store
// version like the other tabs' answers (answer-cache.server.ts). A comparison is typed as a
// ticker, permaticker or name (the data browser's "Add company" lookup); what cannot be shown is
// said in `messages`, never an error page.

export type ChartQuery = ChartLinkQuery & { add: string };

export type Comparison = { token: string; permaticker: number; ticker: string; name: string; hasPrices: boolean };

export type ChartPoint = {
  date: IsoDate;
  close: number;
  pct: number;
  volume: number | null;
  sma50: number | null;
  sma200: number | null;
  compare: (number | null)[];
};

export type PriceChartView = {
  range: Range;
  basis: Basis;
  /** Adjusted closes include dividends (a total-return index for every day shown). */
  dividends: boolean;
  ma: boolean;
  end: IsoDate | null;
  from: IsoDate | null;
  /** Lines are % change from the first day when there are comparisons, else prices. */
  mode: 'price' | 'percent';
  points: ChartPoint[];
  comparisons: Comparison[];
  messages: string[];
  table: { sampling: Sampling; days: number; rows: TableRow[] };
  /** Volume bars: daily, or summed by week/month/… over long ranges. */
  volume: { sampling: Sampling; bars: { date: IsoDate; value: number | null }[] };
  /** The canonical compare list (for links and the form). */
  compare: string[];
};

/** Reads the query string of the tab; unknown values fall back to the defaults. */
export function chartQuery(search: URLSearchParams): ChartQuery {
  const range = (RANGES as readonly string[]).includes(search.get('range') ?? '') ? (search.get('range') as Range) : '1Y';
  const b = search.get('basis');
  // `adjusted=0` is the tab's former address for raw prices.
  const basis: Basis = (BASES as readonly string[]).includes(b ?? '') ? (b as Basis) : search.get('adjusted') === '0' ? 'raw' : 'adjusted';
  return {
    range,
    basis,
    ma: search.get('ma') === '1',
    compare: search.getAll('compare').map((v) => v.slice(0, 2_000)),
    add: (search.get('add') ?? '').slice(0, 200).trim(),
  };
}

type Resolved = { comparisons: Omit<Comparison, 'hasPrices'>[]; messages: string[] };

async function resolveComparisons(company: CompanyHeader, values: string[], options: MarketReadOptions): Promise<Resolved> {
  const { tokens, extra } = parseCompareList(values);
  const comparisons: Omit<Comparison, 'hasPrices'>[] = [];
  const messages: string[] = [];
  const leftOut: string[] = [];
  for (const token of tokens) {
    if (comparisons.length >= MAX_COMPARISONS) {
      leftOut.push(token);
      continue;
    }
    const permaticker = await resolveCompanyText(token, options);
    if (permaticker === null) {
      messages.push(`No company matches “${token}”: try a ticker, a name or a permaticker.`);
      continue;
    }
    if (permaticker === company.permaticker) {
      messages.push(`“${token}” is ${company.ticker} itself, already on the chart.`);
      continue;
    }
    if (comparisons.some((c) => c.permaticker === permaticker)) continue;
    const h = await companyHeader(String(permaticker), options);
    // The list keeps tickers (readable); a ticker that names another company now keeps the permaticker.
    const sameTicker = token.toUpperCase() === h.ticker.toUpperCase() || (await resolveCompanyId(h.ticker, options)) === permaticker;
    const token_ = sameTicker ? h.ticker : String(permaticker);
    comparisons.push({ token: token_, permaticker, ticker: h.ticker, name: h.name });
  }
  if (leftOut.length > 0)
    messages.push(
      `Up to ${MAX_COMPARISONS} comparisons: ${leftOut.length === 1 ? 'one more was' : `${leftOut.length} more were`} left out (${leftOut.join(', ')}).`,
    );
  if (extra > 0) messages.push(`Only the first ${MAX_COMPARE_TOKENS} entries of the compare list are read: ${extra} more were left out.`);
  return { comparisons, messages };
}

/**
 * Closes, volumes and total-return index of some securities between two days (inclusive): one
 * query per security (`permaticker = $1` lets DuckDB skip the other companies' row groups; an IN
 * list scans the whole table).
 */
async function readRanges(
  perms: number[],
  from: IsoDate | null,
  to: IsoDate,
  options: MarketReadOptions,
): Promise<Map<number, StoredPrice[]>> {
  const reader = await readMarket(options);
  const out = new Map<number, StoredPrice[]>();
  for (const permaticker of perms)
    out.set(
      permaticker,
      await reader.all<StoredPrice>(
        `SELECT date, close, close_unadj, volume, tri FROM prices
          WHERE permaticker = $1 ${from ? 'AND date >= $2::DATE AND date <= $3::DATE' : 'AND date <= $2::DATE'}
          ORDER BY date`,
        from ? [permaticker, from, to] : [permaticker, to],
      ),
    );
  return out;
}

/** The tab's data, or the address to go to after the "add a comparison" form. */
export async function priceChartPage(
  company: CompanyHeader,
  asOf: IsoDate | null,
  q: ChartQuery,
  options: MarketReadOptions = {},
): Promise<{ kind: 'redirect'; to: string } | { kind: 'view'; view: PriceChartView }> {
  const resolved = await resolveComparisons(company, [...q.compare, ...(q.add ? [q.add] : [])], options);
  if (q.add) {
    const before = await resolveComparisons(company, q.compare, options);
    const added = resolved.comparisons.length > before.comparisons.length;
    if (added) return { kind: 'redirect', to: chartHref({ ...q, compare: resolved.comparisons.map((c) => c.token) }, asOf) };
    if (resolved.messages.length === before.messages.length) resolved.messages.push(`“${q.add.slice(0, 60)}” is already on the chart.`);
    // Not added: the view stays as it was, with the reason (unknown, the company itself, a 6th).
  }
  return { kind: 'view', view: await priceChartView(company, asOf, q, resolved, options) };
}

/**
 * The view, computed once per store version for the same company, day, range, basis and
 * comparisons (a Max range reads and shapes ~6,300 rows a line); the messages about the typed
 * comparisons come first, as they were said.
 */
async function priceChartView(
  company: CompanyHeader,
  asOf: IsoDate | null,
  q: ChartQuery,
  resolved: Resolved,
  options: MarketReadOptions,
): Promise<PriceChartView> {
  const reader = await readMarket(options);
  const question = ['chart', company.permaticker, asOf, q.range, q.basis, q.ma, JSON.stringify(resolved.comparisons)];
  const view = await cachedAnswer(reader.file, question, () =>
    computeChartView(company, asOf, q, { comparisons: resolved.comparisons }, options),
  );
  return resolved.messages.length === 0 ? view : { ...view, messages: [...resolved.messages, ...view.messages] };
}

async function computeChartView(
  company: CompanyHeader,
  asOf: IsoDate | null,
  q: ChartQuery,
  resolved: Pick<Resolved, 'comparisons'>,
  options: MarketReadOptions,
): Promise<PriceChartView> {
  const end = asOf && company.last_price_date && asOf < company.last_price_date ? asOf : company.last_price_date;
  const compare = resolved.comparisons.map((c) => c.token);
  const empty = { sampling: 'daily' as const, days: 0, rows: [] };
  const noBars = { sampling: 'daily' as const, bars: [] };
  const base = { range: q.range, basis: q.basis, ma: q.ma, compare, messages: [] as string[] };
  if (!end)
    return {
      ...base,
      dividends: false,
      end: null,
      from: null,
      mode: 'price',
      points: [],
      table: empty,
      volume: noBars,
      comparisons: resolved.comparisons.map((c) => ({ ...c, hasPrices: false })),
    };
  const from = rangeStart(q.range, end);
  const perms = resolved.comparisons.map((c) => c.permaticker);
  // Moving averages need 200 trading days (~300 calendar days) before the range.
  const withMa = q.ma && perms.length === 0;
  const own = await readRanges([company.permaticker], withMa && from ? addDays(from, -300) : from, end, options);
  const others = await readRanges(perms, from, end, options);
  const stored = own.get(company.permaticker) ?? [];
  const k = from ? stored.findIndex((r) => r.date >= from) : 0;
  const first = k < 0 ? stored.length : k;
  // The basis is fixed on the range's rows (adjusted closes end on the last close of the range).
  const inRange = onBasis(stored.slice(first), q.basis);
  const before =
    q.basis === 'raw' ? onBasis(stored.slice(0, first), 'raw').points : scaleBefore(stored.slice(0, first + 1), inRange.points[0]);
  const closes = [...before, ...inRange.points].map((p) => p.close);
  const sma50 = withMa ? movingAverage(closes, 50).slice(before.length) : [];
  const sma200 = withMa ? movingAverage(closes, 200).slice(before.length) : [];
  const days = inRange.points;
  const dates = days.map((p) => p.date);
  const pct = percentFrom(days.map((p) => p.close));
  const comparisons: Comparison[] = [];
  const lines: (number | null)[][] = [];
  for (const c of resolved.comparisons) {
    const pts: BasisPoint[] = onBasis(others.get(c.permaticker) ?? [], q.basis).points;
    const line = alignedPercent(dates, pts);
    const hasPrices = line.some((v) => v !== null);
    comparisons.push({ ...c, hasPrices });
    if (hasPrices) lines.push(line);
    else lines.push(dates.map(() => null));
    if (!hasPrices) base.messages.push(`${c.ticker} has no prices between ${from ?? dates[0] ?? end} and ${end}: it has no line.`);
  }
  const dayRows = days.map((p, i) => ({ date: p.date, close: p.close, volume: p.volume, compare: lines.map((l) => l[i]) }));
  const sampling = chooseSampling(dates);
  const barSampling = chooseSampling(dates, MAX_VOLUME_BARS);
  const points = thinIndices(days.length).map((i) => ({
    date: days[i].date,
    close: days[i].close,
    pct: pct[i] ?? 0,
    volume: days[i].volume,
    sma50: sma50[i] ?? null,
    sma200: sma200[i] ?? null,
    compare: dayRows[i].compare,
  }));
  return {
    ...base,
    dividends: inRange.dividends,
    end,
    from: from ?? dates[0] ?? null,
    mode: comparisons.length > 0 ? 'percent' : 'price',
    points,
    comparisons,
    table: { sampling, days: days.length, rows: sampleRows(dayRows, sampling) },
    volume: { sampling: barSampling, bars: sampleRows(dayRows, barSampling).map((r) => ({ date: r.date, value: r.volume })) },
  };
}

/** Rows before the range on the adjusted basis of the range (for the moving averages' warm-up). */
function scaleBefore(rows: StoredPrice[], firstInRange: BasisPoint | undefined): BasisPoint[] {
  if (rows.length <= 1 || !firstInRange) return [];
  const adjusted = onBasis(rows, 'adjusted').points;
  const k = firstInRange.close / adjusted[adjusted.length - 1].close;
  return adjusted.slice(0, -1).map((p) => ({ ...p, close: p.close * k }));
}

import { addMonths, fromEpochDay, toEpochDay, type IsoDate } from '../../dates';
import { FACT_COLUMNS, type SecurityPrices } from '../store/market-columns';
import type { CodedRows } from '../store/typed-columns';
import type { CorporateActionRecord, FactRecord, SecurityRecord, TickerPeriodRecord } from '../store/records';
import type { Factors } from './factors';
import { fiscalQuarters } from './fiscal';
import { generateFacts, type QuarterMarket } from './fundamentals';
import { DEMO_SOURCE, type CompanyPlan, type DemoPlan } from './plan';
import { simulatePricePath } from './price-path';
import { mixSeed, Rng } from './random';

// Everything the store holds about one demo company, generated from its own random stream.

export type DemoCompany = {
  security: SecurityRecord;
  tickerHistory: TickerPeriodRecord[];
  /** As typed columns, the form the store's writer takes: 6,300 price objects a company cost the generator a third of its time. */
  prices: SecurityPrices;
  actions: CorporateActionRecord[];
  /** Coded as the writer takes them (FACT_COLUMNS), for the same reason. */
  facts: CodedRows;
};

/** A demo company's facts as records (for tests and statistics). */
export function factRecordsOf(c: DemoCompany): FactRecord[] {
  const { columns, texts } = c.facts;
  const get = FACT_COLUMNS.map((spec, k) => {
    const values = columns[k].values as Int32Array | Float64Array;
    const nulls = 'nulls' in columns[k] ? columns[k].nulls : undefined;
    if (spec.kind === 'varchar') {
      const words = texts[FACT_COLUMNS.slice(0, k).filter((s) => s.kind === 'varchar').length];
      return (r: number) => (values[r] === 0 ? null : words[values[r] - 1]);
    }
    if (spec.kind === 'date') return (r: number) => (nulls?.[r] === 1 ? null : fromEpochDay(values[r]));
    return (r: number) => (nulls?.[r] === 1 ? null : values[r]);
  });
  const at = (name: string) => get[FACT_COLUMNS.findIndex((spec) => spec.name === name)];
  const [permaticker, concept, value, unit, periodStart, periodEnd, fiscalYear, fiscalPeriod, form, filed, accession, source, sourceTag] = [
    'permaticker',
    'concept',
    'value',
    'unit',
    'period_start',
    'period_end',
    'fiscal_year',
    'fiscal_period',
    'form',
    'filed',
    'accession',
    'source',
    'source_tag',
  ].map(at);
  return Array.from({ length: c.facts.rows }, (_, r) => ({
    permaticker: permaticker(r) as number,
    concept: concept(r) as FactRecord['concept'],
    value: value(r) as number,
    unit: unit(r) as string,
    periodStart: periodStart(r) as IsoDate | null,
    periodEnd: periodEnd(r) as IsoDate,
    fiscalYear: fiscalYear(r) as number | null,
    fiscalPeriod: fiscalPeriod(r) as FactRecord['fiscalPeriod'],
    form: form(r) as string | null,
    filed: filed(r) as IsoDate,
    accession: accession(r) as string | null,
    source: source(r) as string,
    sourceTag: sourceTag(r) as string | null,
  }));
}

/** The plan's trading days as epoch days, computed once per plan. */
const planEpochDays = new WeakMap<readonly IsoDate[], Int32Array>();
function epochDaysOf(days: readonly IsoDate[]): Int32Array {
  let out = planEpochDays.get(days);
  if (!out) planEpochDays.set(days, (out = Int32Array.from(days, toEpochDay)));
  return out;
}

const ACQUIRERS = ['Northwind Capital Partners', 'Bluehaven Holdings', 'Ironleaf Group', 'Crescent Harbor Industries', 'Silverpine Equity'];

/** Index of the last trading day on or before `date` (-1 if none). */
function dayAtOrBefore(days: readonly IsoDate[], date: IsoDate): number {
  let lo = 0;
  let hi = days.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid] <= date) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

// Prices as traded: cents, or hundredths of a cent below a dollar (bankrupt stocks end there).
function tradedPrice(x: number): number {
  return x >= 1 ? Math.round(x * 100) / 100 : Math.max(0.0001, Math.round(x * 10000) / 10000);
}

/**
 * The total-return index as a data vendor gives one (an adjusted close with dividends
 * reinvested): in dollars, from the first adjusted close, to 4 decimals, or 4 significant digits
 * below a dollar (never 0: a bankrupt stock's index only nears it). Written to full double
 * precision the index is 64 bits a day that the store cannot compress (132 of a 6,000 × 25-year
 * demo's 1,150 MB); like this it is 45 MB, and its daily returns are exact to a hundredth of a
 * basis point on a one-dollar stock.
 */
function vendorTotalReturn(x: number): number {
  return x >= 1 ? Math.round(x * 10000) / 10000 : Number(x.toPrecision(4));
}

export function generateCompany(plan: DemoPlan, factors: Factors, company: CompanyPlan): DemoCompany {
  const { days, options } = plan;
  const rng = new Rng(mixSeed(options.seed, 0x434f4d50, company.index));
  const firstDate = days[company.firstDay];
  const lastDate = days[company.lastDay];
  const marketCap = Math.min(5e11, Math.max(5e7, rng.lognormal(1.5e9, 1.4)));

  // Filings: from a year before listing (an IPO prospectus carries that history, known from
  // the listing day) up to the last day the company is listed.
  const quarters = fiscalQuarters(rng, company.fiscalYearEndMonth, addMonths(firstDate, -12), lastDate)
    .map((q) => (company.firstDay > 0 && q.filed < firstDate ? { ...q, filed: firstDate } : q))
    .filter((q) => q.filed <= lastDate);
  const earningsDays = new Set<number>();
  for (const q of quarters) {
    const d = dayAtOrBefore(days, q.filed) + 1;
    if (d > company.firstDay && d <= company.lastDay) earningsDays.add(d);
  }

  const path = simulatePricePath({ rng, company, factors, earningsDays, marketCap });
  const at = (day: number) => Math.min(path.length - 1, Math.max(0, day - company.firstDay));

  const markets: QuarterMarket[] = [];
  let previousIndex = -1;
  for (const q of quarters) {
    const i = at(dayAtOrBefore(days, q.periodEnd));
    let dividendsPaid = 0;
    for (const d of path.dividends) {
      const j = d.day - company.firstDay;
      if (j > previousIndex && j <= i) dividendsPaid += d.perOriginalShare * path.sharesOriginal[j];
    }
    const shrink = previousIndex >= 0 ? path.sharesOriginal[previousIndex] - path.sharesOriginal[i] : 0;
    markets.push({
      marketCap: path.value[i] * path.sharesOriginal[i],
      shares: path.sharesOriginal[i] * path.splitFactor[i],
      dividendsPaid,
      buybacks: shrink > 0 ? shrink * path.value[i] : 0,
      distressed: company.delisting === 'bankruptcy' && company.lastDay - (company.firstDay + i) < 504,
    });
    previousIndex = Math.max(previousIndex, i);
  }
  const facts = generateFacts(rng, company, quarters, markets);

  const finalFactor = path.splitFactor[path.length - 1];
  // The index starts at the first close (split-adjusted, as `close` is).
  const triScale = (tradedPrice(path.value[0] / path.splitFactor[0]) * path.splitFactor[0]) / finalFactor / path.tri[0];
  const n = path.length;
  const prices: SecurityPrices = {
    permaticker: company.permaticker,
    day: epochDaysOf(days).slice(company.firstDay, company.firstDay + n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
    closeUnadj: new Float64Array(n),
    tri: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const f = path.splitFactor[i];
    const toAdjusted = f / finalFactor;
    const closeUnadj = tradedPrice(path.value[i] / f);
    prices.open[i] = tradedPrice(path.open[i] / f) * toAdjusted;
    prices.high[i] = tradedPrice(path.high[i] / f) * toAdjusted;
    prices.low[i] = tradedPrice(path.low[i] / f) * toAdjusted;
    prices.close[i] = closeUnadj * toAdjusted;
    prices.volume[i] = Math.round(path.volume[i] / toAdjusted);
    prices.closeUnadj[i] = closeUnadj;
    prices.tri[i] = vendorTotalReturn(path.tri[i] * triScale);
  }

  const action = (
    day: number,
    kind: CorporateActionRecord['action'],
    value: number | null,
    detail: string | null,
  ): CorporateActionRecord => ({
    permaticker: company.permaticker,
    date: days[day],
    action: kind,
    value,
    detail,
    source: DEMO_SOURCE,
  });
  const actions: CorporateActionRecord[] = [];
  if (company.firstDay > 0) actions.push(action(company.firstDay, 'listing', prices.closeUnadj[0], company.exchange));
  for (const d of path.dividends) {
    actions.push(
      action(d.day, 'dividend', Math.round((d.perOriginalShare / path.splitFactor[d.day - company.firstDay]) * 10000) / 10000, null),
    );
  }
  for (const s of path.splits) actions.push(action(s.day, 'split', s.ratio, `${s.ratio}-for-1`));
  for (let k = 1; k < company.tickers.length; k++)
    actions.push(action(company.tickers[k].fromDay, 'ticker_change', null, company.tickers[k].ticker));
  if (company.delisting === 'acquisition') {
    actions.push(
      action(
        company.lastDay,
        'acquisition',
        path.acquisitionPrice === null ? null : tradedPrice(path.acquisitionPrice),
        rng.pick(ACQUIRERS),
      ),
    );
  }
  if (company.delisting === 'bankruptcy') actions.push(action(company.lastDay, 'bankruptcy', null, 'Chapter 11'));
  if (company.delisting) actions.push(action(company.lastDay, 'delisting', null, company.delisting));
  actions.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

  const tickerHistory: TickerPeriodRecord[] = company.tickers.map((t, k) => {
    const next = company.tickers[k + 1];
    return {
      permaticker: company.permaticker,
      ticker: t.ticker,
      startDate: days[t.fromDay],
      endDate: next ? days[next.fromDay - 1] : company.delisting ? lastDate : null,
    };
  });

  const security: SecurityRecord = {
    permaticker: company.permaticker,
    ticker: company.tickers[company.tickers.length - 1].ticker,
    name: company.name,
    exchange: company.exchange,
    category: 'Demo Common Stock',
    sector: company.sector.name,
    industry: company.industry,
    cik: company.cik,
    currency: 'USD',
    description: `DEMO DATA: a fictional ${company.industry.toLowerCase()} company generated by Quarry's demo universe (seed ${options.seed}). Not a real security.`,
    firstPriceDate: firstDate,
    lastPriceDate: lastDate,
    isDelisted: company.delisting !== null,
    isDemo: true,
    source: DEMO_SOURCE,
  };
  return { security, tickerHistory, prices, actions, facts };
}

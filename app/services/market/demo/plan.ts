import { addDays, addMonths, type IsoDate } from '../../dates';
import { lastWeekdayOnOrBefore, tradingDays } from './calendar';
import { mixSeed, Rng } from './random';
import { LEGAL_SUFFIXES, nameStem, SECTORS, type SectorProfile } from './sectors';

// The universe plan: who exists, when they list and leave, under which tickers. Drawn in one
// cheap sequential pass (ticker uniqueness needs it); the heavy per-company work (prices,
// filings) happens later from each company's own random stream.

export const DEMO_SOURCE = 'demo';
export const DEFAULT_DEMO_END = '2026-10-30';
export const DEMO_PERMATICKER_BASE = 900_001;

export type DemoOptions = {
  companies: number;
  years: number;
  seed: number;
  /** Last day of the universe; the last weekday on or before it is used. Never the clock. */
  endDate?: IsoDate;
};

export type DelistingKind = 'bankruptcy' | 'acquisition';

export type CompanyPlan = {
  index: number;
  permaticker: number;
  cik: string;
  name: string;
  sector: SectorProfile;
  sectorIndex: number;
  industry: string;
  exchange: 'DEMO-NYSE' | 'DEMO-NASDAQ';
  /** Trading-day indexes of the first and last price (inclusive). */
  firstDay: number;
  lastDay: number;
  delisting: DelistingKind | null;
  /** Ticker periods in order; the last one is the current (or final) ticker. */
  tickers: { ticker: string; fromDay: number }[];
  paysDividends: boolean;
  /** Month (1-12) in which the fiscal year ends. */
  fiscalYearEndMonth: number;
};

export type DemoPlan = {
  options: Required<DemoOptions>;
  days: IsoDate[];
  companies: CompanyPlan[];
};

export const DEMO_LIMITS = { companies: [1, 20_000], years: [1, 40] } as const;

export function validateDemoOptions(options: DemoOptions): Required<DemoOptions> {
  const { companies, years, seed } = options;
  if (!Number.isInteger(companies) || companies < DEMO_LIMITS.companies[0] || companies > DEMO_LIMITS.companies[1]) {
    throw new RangeError(`companies must be an integer from ${DEMO_LIMITS.companies[0]} to ${DEMO_LIMITS.companies[1]}, got ${companies}`);
  }
  if (!Number.isInteger(years) || years < DEMO_LIMITS.years[0] || years > DEMO_LIMITS.years[1]) {
    throw new RangeError(`years must be an integer from ${DEMO_LIMITS.years[0]} to ${DEMO_LIMITS.years[1]}, got ${years}`);
  }
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const endDate = options.endDate ?? DEFAULT_DEMO_END;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(endDate)) throw new RangeError(`endDate must be YYYY-MM-DD, got ${endDate}`);
  return { companies, years, seed, endDate: lastWeekdayOnOrBefore(endDate) };
}

// Yearly hazard of leaving the market; with the IPO share below about 4-5 % of listed
// companies delist each year, as in the US market.
const DELISTING_HAZARD = 0.05;
const BANKRUPTCY_SHARE = 0.35;
const LISTED_AT_START = 0.6;
const TICKER_CHANGE_HAZARD = 0.012;
const TICKER_RECYCLE_CHANCE = 0.15;
const TRADING_DAYS_PER_YEAR = 252;

const LETTERS = 'ABCDEFGHIJKLMNOPRSTUVWXYZ';

function drawTicker(rng: Rng, taken: Set<string>): string {
  for (let attempt = 0; ; attempt++) {
    const length = attempt > 50 ? 5 : rng.chance(0.35) ? 3 : 4;
    let ticker = '';
    for (let i = 0; i < length; i++) ticker += LETTERS[rng.int(0, LETTERS.length - 1)];
    if (!taken.has(ticker)) {
      taken.add(ticker);
      return ticker;
    }
  }
}

function pickSector(rng: Rng): number {
  let u = rng.uniform();
  for (let i = 0; i < SECTORS.length; i++) {
    u -= SECTORS[i].weight;
    if (u <= 0) return i;
  }
  return SECTORS.length - 1;
}

export function planDemoUniverse(input: DemoOptions): DemoPlan {
  const options = validateDemoOptions(input);
  // The window is (end - years, end], so one year is one year of trading days.
  const start = addMonths(options.endDate, -12 * options.years);
  const days = tradingDays(addDays(start, 1), options.endDate);
  const rng = new Rng(mixSeed(options.seed, 0x504c414e));
  const takenTickers = new Set<string>();
  const names = new Set<string>();
  const companies: CompanyPlan[] = [];
  const lastIndex = days.length - 1;

  for (let index = 0; index < options.companies; index++) {
    const sectorIndex = pickSector(rng);
    const sector = SECTORS[sectorIndex];
    let name = '';
    for (let attempt = 0; attempt < 20 && (name === '' || names.has(name)); attempt++) {
      const word = rng.chance(0.6) ? ` ${rng.pick(sector.nameWords)}` : '';
      name = `${nameStem((items) => rng.pick(items))}${word} ${rng.pick(LEGAL_SUFFIXES)}`;
    }
    names.add(name);
    const firstDay = rng.chance(LISTED_AT_START) ? 0 : rng.int(1, lastIndex);
    // Exponential time to delisting; a new listing survives at least its first year.
    const yearsListed = (firstDay > 0 ? 1 : 0.05) - Math.log(rng.uniform()) / DELISTING_HAZARD;
    const exitDay = firstDay + Math.round(yearsListed * TRADING_DAYS_PER_YEAR);
    const delisted = exitDay < lastIndex;
    const delisting: DelistingKind | null = delisted ? (rng.chance(BANKRUPTCY_SHARE) ? 'bankruptcy' : 'acquisition') : null;
    const lastDay = delisted ? exitDay : lastIndex;
    const tech = sector.name === 'Information Technology' || sector.name === 'Health Care' || sector.name === 'Communication Services';
    companies.push({
      index,
      permaticker: DEMO_PERMATICKER_BASE + index,
      // Fictional CIKs far above the SEC's range, so accession numbers cannot point at real filings.
      cik: String(9_900_000_000 + index),
      name,
      sector,
      sectorIndex,
      industry: rng.pick(sector.industries),
      exchange: rng.chance(tech ? 0.75 : 0.3) ? 'DEMO-NASDAQ' : 'DEMO-NYSE',
      firstDay,
      lastDay,
      delisting,
      tickers: [],
      paysDividends: rng.chance(sector.dividendPayers * 0.85),
      fiscalYearEndMonth: rng.chance(0.7) ? 12 : rng.pick([3, 6, 9]),
    });
  }

  // Tickers in listing order, so a ticker freed by a delisting can pass to a later IPO
  // (tickers are recycled in real markets; permatickers never are).
  const byListing = [...companies].sort((a, b) => a.firstDay - b.firstDay || a.index - b.index);
  const freed: { ticker: string; day: number }[] = [];
  for (const company of byListing) {
    let ticker: string | null = null;
    if (company.firstDay > 0 && rng.chance(TICKER_RECYCLE_CHANCE)) {
      const i = freed.findIndex((f) => f.day < company.firstDay);
      if (i >= 0) ticker = freed.splice(i, 1)[0].ticker;
    }
    company.tickers.push({ ticker: ticker ?? drawTicker(rng, takenTickers), fromDay: company.firstDay });
    const listedYears = (company.lastDay - company.firstDay) / TRADING_DAYS_PER_YEAR;
    if (listedYears > 2 && rng.chance(1 - Math.exp(-TICKER_CHANGE_HAZARD * listedYears))) {
      const day = company.firstDay + rng.int(TRADING_DAYS_PER_YEAR, company.lastDay - company.firstDay - 1);
      company.tickers.push({ ticker: drawTicker(rng, takenTickers), fromDay: day });
    }
    if (company.delisting) freed.push({ ticker: company.tickers[company.tickers.length - 1].ticker, day: company.lastDay });
    freed.sort((a, b) => a.day - b.day);
  }
  return { options, days, companies };
}

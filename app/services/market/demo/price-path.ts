import type { Factors } from './factors';
import type { CompanyPlan } from './plan';
import type { Rng } from './random';

// One company's daily price history. Returns come from a factor model,
//   r = alpha + beta * market + loading * sector + idiosyncratic (+ earnings jump),
// where the idiosyncratic part is its own GARCH(1,1) with Student-t shocks. Dividends are
// paid out of the price (total return is unchanged), splits change the share count only.
// Bankrupt companies slide towards zero in their final months; acquired ones jump to the
// offer premium on their last day.

const YEAR = 252;
const NEWS_PER_DAY = 2 / YEAR;
const NEWS_SIZE = 0.045;

export type PricePath = {
  /** Trading-day index of element 0. */
  firstDay: number;
  length: number;
  /** Price per ORIGINAL share (before any split), so splits do not show as jumps. */
  value: Float64Array;
  /** Shares per original share in force that day (cumulative split factor). */
  splitFactor: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  /** Total-return index (dividends reinvested). */
  tri: Float64Array;
  /** Shares traded that day, in shares of that day. */
  volume: Float64Array;
  /** Original-basis shares outstanding. */
  sharesOriginal: Float64Array;
  dividends: { day: number; perOriginalShare: number }[];
  splits: { day: number; ratio: number }[];
  /** Offer price per share (as traded) for acquisitions. */
  acquisitionPrice: number | null;
};

export type PricePathInput = {
  rng: Rng;
  company: CompanyPlan;
  factors: Factors;
  /** Trading-day indexes on which results are published (earnings reactions). */
  earningsDays: Set<number>;
  /** Starting market value of the company, in dollars. */
  marketCap: number;
};

export function simulatePricePath({ rng, company, factors, earningsDays, marketCap }: PricePathInput): PricePath {
  const { firstDay, lastDay, sector } = company;
  const length = lastDay - firstDay + 1;
  const beta = Math.min(2.2, Math.max(0.3, sector.beta * Math.exp(0.25 * rng.normal())));
  const loading = rng.between(0.6, 1.3);
  const idioVol = (0.72 * sector.idioVol * Math.exp(0.25 * rng.normal())) / Math.sqrt(YEAR);
  const alpha = (0.04 * rng.normal() - 0.01) / YEAR;
  const garchAlpha = rng.between(0.1, 0.16);
  const garchBeta = 0.98 - garchAlpha;
  // Real volatility rarely runs above three to four times its norm; the cap keeps one extreme
  // t-draw from feeding a runaway variance (a twelvefold year in a quiet stock).
  const maxVariance = (12 * (0.72 * sector.idioVol) ** 2) / YEAR;
  const omega = idioVol * idioVol * (1 - garchAlpha - garchBeta);
  const jumpVol = rng.between(0.02, 0.05);

  // Bankruptcy: the last 6-12 months lose 94-99 % with higher idiosyncratic volatility.
  const distressDays = company.delisting === 'bankruptcy' ? Math.min(length - 1, rng.int(120, 260)) : 0;
  const distressDrift = distressDays > 0 ? Math.log(rng.between(0.01, 0.06)) / distressDays : 0;
  const premium = company.delisting === 'acquisition' ? rng.between(0.18, 0.5) : 0;

  const startPrice = Math.exp(rng.between(Math.log(8), Math.log(120)));
  const sharesStart = marketCap / startPrice;
  const shareDrift = rng.between(-0.02, 0.03) / YEAR;
  const turnover = 0.006 * Math.exp(0.5 * rng.normal());
  const splitThreshold = rng.between(150, 400);
  const dividendYield = company.paysDividends ? rng.between(0.01, 0.045) : 0;
  const dividendOffset = rng.int(30, 92);

  const value = new Float64Array(length);
  const splitFactor = new Float64Array(length);
  const open = new Float64Array(length);
  const high = new Float64Array(length);
  const low = new Float64Array(length);
  const tri = new Float64Array(length);
  const volume = new Float64Array(length);
  const sharesOriginal = new Float64Array(length);
  const dividends: PricePath['dividends'] = [];
  const splits: PricePath['splits'] = [];

  const market = factors.market;
  const sectorReturns = factors.sectors[company.sectorIndex];
  let variance = idioVol * idioVol;
  let shock = 0;
  let price = startPrice;
  let factor = 1;
  let index = 1;
  let shares = sharesStart;
  let dividend = 0;
  let lastSplit = -YEAR;
  let yearStartPrice = startPrice;

  for (let i = 0; i < length; i++) {
    const day = firstDay + i;
    const previous = price;
    let logReturn = 0;
    if (i > 0) {
      variance = Math.min(maxVariance, omega + garchAlpha * shock * shock + garchBeta * variance);
      const inDistress = i >= length - distressDays;
      shock = Math.sqrt(variance) * rng.studentT6();
      // Distress scales the shock but not the GARCH feedback, which would otherwise explode.
      logReturn = alpha + beta * market[day] + loading * sectorReturns[day] + shock * (inDistress ? 1.7 : 1);
      if (earningsDays.has(day)) logReturn += jumpVol * rng.studentT6();
      // Unscheduled news (guidance, lawsuits, deals): rare, large, the main source of fat tails.
      else if (rng.uniform() < NEWS_PER_DAY) logReturn += NEWS_SIZE * rng.normal();
      if (inDistress) logReturn += distressDrift;
      if (premium > 0 && i === length - 1) logReturn = Math.log(1 + premium);
      logReturn = Math.max(-2.5, Math.min(1.5, logReturn));
    }
    const totalReturn = Math.exp(logReturn) - 1;
    index *= 1 + totalReturn;
    price = previous * (1 + totalReturn);

    // Quarterly dividends: set from the yield at the first payment, raised once a year with
    // the business, suspended in distress (that is what boards do before a bankruptcy).
    const sinceListing = i - dividendOffset;
    if (dividendYield > 0 && sinceListing >= 0 && sinceListing % 63 === 0 && i < length - 1) {
      const distressed = distressDays > 0 && i >= length - distressDays - 60;
      if (dividend === 0) dividend = (dividendYield * price) / 4;
      else if (sinceListing % YEAR === 0) {
        const yearly = price / yearStartPrice - 1;
        dividend *= yearly < -0.35 ? 0.5 : 1 + Math.min(0.12, Math.max(0, 0.03 + 0.3 * yearly));
        yearStartPrice = price;
      }
      if (!distressed && dividend < price * 0.05) {
        dividends.push({ day, perOriginalShare: dividend });
        price -= dividend;
      }
    }

    // Splits when the traded price has run up; never more than one a year.
    if (price / factor > splitThreshold && i - lastSplit > YEAR && rng.chance(0.05)) {
      const ratio = price / factor > splitThreshold * 2.5 ? 3 : 2;
      factor *= ratio;
      lastSplit = i;
      splits.push({ day, ratio });
    }

    shares *= Math.exp(shareDrift);
    const dailyVol = Math.sqrt(variance) + 0.004;
    const gap = i === 0 ? 0 : 0.3 * dailyVol * rng.normal();
    const o = previous * Math.exp(gap);
    const top = Math.max(o, price) * Math.exp(Math.abs(rng.normal()) * 0.5 * dailyVol);
    const bottom = Math.min(o, price) * Math.exp(-Math.abs(rng.normal()) * 0.5 * dailyVol);
    value[i] = price;
    splitFactor[i] = factor;
    open[i] = i === 0 ? price : o;
    high[i] = i === 0 ? price : top;
    low[i] = i === 0 ? price : bottom;
    tri[i] = index;
    volume[i] = turnover * shares * factor * Math.exp(0.4 * rng.normal()) * (1 + 10 * Math.abs(totalReturn));
    sharesOriginal[i] = shares;
  }
  const acquisitionPrice = premium > 0 ? value[length - 1] / splitFactor[length - 1] : null;
  return { firstDay, length, value, splitFactor, open, high, low, tri, volume, sharesOriginal, dividends, splits, acquisitionPrice };
}

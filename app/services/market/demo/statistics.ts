import type { IsoDate } from '../../dates';
import type { FactRecord } from '../store/records';
import { factRecordsOf, type DemoCompany } from './company';

// The statistics used to judge whether the demo universe looks like a real market
// (daily total returns of companies with full history, plus fundamentals and corporate events).

export type RealismStatistics = {
  fullHistoryCompanies: number;
  medianAnnualVolatility: number;
  meanPairwiseCorrelation: number;
  medianExcessKurtosis: number;
  medianSquaredReturnAutocorrelation: number;
  equalWeightedIndexVolatility: number;
  crossSectionalYearlyReturnSd: number;
  dividendPayerShare: number;
  delistingRatePerYear: number;
  medianPriceToEarnings: number;
  medianPriceToSales: number;
};

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

export function standardDeviation(values: ArrayLike<number>): number {
  const m = mean(values);
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += (values[i] - m) ** 2;
  return Math.sqrt(sum / (values.length - 1));
}

export function excessKurtosis(values: ArrayLike<number>): number {
  const m = mean(values);
  let m2 = 0;
  let m4 = 0;
  for (let i = 0; i < values.length; i++) {
    const d = values[i] - m;
    m2 += d * d;
    m4 += d * d * d * d;
  }
  m2 /= values.length;
  m4 /= values.length;
  return m4 / (m2 * m2) - 3;
}

export function autocorrelation(values: ArrayLike<number>, lag = 1): number {
  const m = mean(values);
  let num = 0;
  let den = 0;
  for (let i = 0; i < values.length; i++) {
    const d = values[i] - m;
    den += d * d;
    if (i >= lag) num += d * (values[i - lag] - m);
  }
  return num / den;
}

/** A company's facts as records, decoded once. */
const records = new WeakMap<DemoCompany, FactRecord[]>();
function factsOf(company: DemoCompany): FactRecord[] {
  let out = records.get(company);
  if (!out) records.set(company, (out = factRecordsOf(company)));
  return out;
}

function lastFact(company: DemoCompany, concept: string, asOf: IsoDate) {
  let best: FactRecord | null = null;
  for (const f of factsOf(company)) {
    if (f.concept !== concept || f.filed >= asOf) continue;
    if (!best || f.periodEnd > best.periodEnd) best = f;
  }
  return best;
}

/** Sum of the latest four quarterly values of a flow concept known before `asOf`, or null. */
function trailingFourQuarters(company: DemoCompany, concept: string, asOf: IsoDate): number | null {
  const quarters = factsOf(company)
    .filter((f) => f.concept === concept && f.fiscalPeriod !== 'FY' && f.filed < asOf)
    .sort((a, b) => (a.periodEnd < b.periodEnd ? 1 : -1))
    .slice(0, 4);
  return quarters.length === 4 ? quarters.reduce((a, f) => a + f.value, 0) : null;
}

export function realismStatistics(companies: readonly DemoCompany[], days: readonly IsoDate[]): RealismStatistics {
  const first = days[0];
  const last = days[days.length - 1];
  const full = companies.filter((c) => c.prices.day.length === days.length);
  const returns = full.map((c) => {
    const tri = c.prices.tri;
    const r = new Float64Array(tri.length - 1);
    for (let i = 1; i < tri.length; i++) r[i - 1] = tri[i] / tri[i - 1] - 1;
    return r;
  });
  const T = days.length - 1;

  // Pairwise correlations from standardised series: corr(i, j) = mean(z_i * z_j).
  const standardised = returns.map((r) => {
    const m = mean(r);
    const sd = standardDeviation(r);
    return r.map((x) => (x - m) / sd);
  });
  let correlationSum = 0;
  let pairs = 0;
  for (let i = 0; i < standardised.length; i++) {
    for (let j = i + 1; j < standardised.length; j++) {
      let dot = 0;
      const a = standardised[i];
      const b = standardised[j];
      for (let t = 0; t < T; t++) dot += a[t] * b[t];
      correlationSum += dot / (T - 1);
      pairs++;
    }
  }

  const index = new Float64Array(T);
  for (const r of returns) for (let t = 0; t < T; t++) index[t] += r[t] / returns.length;

  // Calendar years fully inside the window.
  const yearEnds: number[] = [];
  for (let i = 1; i < days.length; i++) if (days[i].slice(0, 4) !== days[i - 1].slice(0, 4)) yearEnds.push(i - 1);
  const yearlySds: number[] = [];
  for (let k = 1; k < yearEnds.length; k++) {
    const yearly = full.map((c) => c.prices.tri[yearEnds[k]] / c.prices.tri[yearEnds[k - 1]] - 1);
    yearlySds.push(standardDeviation(yearly));
  }

  const delistingRates: number[] = [];
  const firstYear = Number(first.slice(0, 4)) + 1;
  const lastYear = Number(last.slice(0, 4)) - 1;
  for (let year = firstYear; year <= lastYear; year++) {
    const from = `${year}-01-01`;
    const to = `${year}-12-31`;
    const listed = companies.filter((c) => (c.security.firstPriceDate as string) <= to && (c.security.lastPriceDate as string) >= from);
    const delisted = listed.filter((c) => c.security.isDelisted && (c.security.lastPriceDate as string) <= to);
    if (listed.length > 0) delistingRates.push(delisted.length / listed.length);
  }

  const pe: number[] = [];
  const ps: number[] = [];
  for (const c of companies) {
    if (c.security.isDelisted) continue;
    const shares = lastFact(c, 'shares_outstanding', last);
    const price = c.prices.closeUnadj[c.prices.closeUnadj.length - 1];
    const earnings = trailingFourQuarters(c, 'net_income', last);
    const revenue = trailingFourQuarters(c, 'revenue', last);
    if (!shares || earnings === null || revenue === null) continue;
    const cap = price * shares.value;
    if (earnings > 0) pe.push(cap / earnings);
    if (revenue > 0) ps.push(cap / revenue);
  }

  return {
    fullHistoryCompanies: full.length,
    medianAnnualVolatility: median(returns.map((r) => standardDeviation(r) * Math.sqrt(252))),
    meanPairwiseCorrelation: correlationSum / pairs,
    medianExcessKurtosis: median(returns.map(excessKurtosis)),
    medianSquaredReturnAutocorrelation: median(returns.map((r) => autocorrelation(r.map((x) => x * x)))),
    equalWeightedIndexVolatility: standardDeviation(index) * Math.sqrt(252),
    crossSectionalYearlyReturnSd: mean(yearlySds),
    dividendPayerShare: companies.filter((c) => c.actions.some((a) => a.action === 'dividend')).length / companies.length,
    delistingRatePerYear: mean(delistingRates),
    medianPriceToEarnings: median(pe),
    medianPriceToSales: median(ps),
  };
}

import { fromEpochDay, toEpochDay, weekday } from '../../dates';
import { buildFactColumns, type FactRow } from '../engine/facts';
import type { SecurityInput } from '../engine/types';

// A small deterministic universe for tests and the benchmark: weekday prices from a random walk,
// quarterly 10-Q facts (Q1–Q3) and 10-K years filed 30–80 days after period end, some dividends
// and splits, some delistings. Not the demo generator (that is the importer's job): just enough
// shape to exercise every metric.

export type SyntheticOptions = {
  securities: number;
  years: number;
  seed: number;
  endDate?: string;
  firstPermaticker?: number;
};

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

export type SyntheticSecurity = SecurityInput & {
  factRows: FactRow[];
  splits: { day: number; ratio: number }[];
  ticker: string;
};

export function tradingDays(fromDay: number, toDay: number): number[] {
  const out: number[] = [];
  for (let d = fromDay; d <= toDay; d++) {
    const w = weekday(fromEpochDay(d));
    if (w !== 0 && w !== 6) out.push(d);
  }
  return out;
}

const QUARTER_ENDS = ['03-31', '06-30', '09-30', '12-31'];

export function syntheticUniverse(opts: SyntheticOptions): SyntheticSecurity[] {
  const rand = mulberry32(opts.seed);
  const end = toEpochDay(opts.endDate ?? '2024-12-31');
  const start = end - Math.round(opts.years * 365.25);
  const allDays = tradingDays(start, end);
  const marketShocks = allDays.map(() => gaussian(rand) * 0.009);
  const out: SyntheticSecurity[] = [];
  for (let s = 0; s < opts.securities; s++) {
    const permaticker = (opts.firstPermaticker ?? 100_000) + s;
    // Some list later, some delist before the end.
    const firstIdx = rand() < 0.3 ? Math.floor(rand() * allDays.length * 0.6) : 0;
    const delisted = rand() < 0.1;
    const lastIdx = delisted ? firstIdx + Math.floor((allDays.length - firstIdx) * (0.3 + 0.6 * rand())) : allDays.length - 1;
    const n = lastIdx - firstIdx + 1;
    const dates = new Int32Array(n);
    const close = new Float64Array(n);
    const closeUnadj = new Float64Array(n);
    const tri = new Float64Array(n);
    const volume = new Float64Array(n);
    const beta = 0.5 + rand();
    const vol = 0.01 + rand() * 0.015;
    const hasSplit = rand() < 0.2;
    const splitIdx = hasSplit ? Math.floor(n * (0.2 + 0.6 * rand())) : -1;
    const pays = rand() < 0.45;
    let p = 10 + rand() * 90;
    let t = 100;
    const exDays: number[] = [];
    const amounts: number[] = [];
    let dividend = pays ? p * 0.005 : 0;
    let lastDivMonth = -1;
    for (let k = 0; k < n; k++) {
      const day = allDays[firstIdx + k];
      dates[k] = day;
      if (k > 0) {
        const r = beta * marketShocks[firstIdx + k] + gaussian(rand) * vol + 0.0002;
        p *= 1 + r;
        t *= 1 + r;
      }
      // Unadjusted price: before the split, the traded price was `ratio` times the adjusted one.
      const ratio = hasSplit && k < splitIdx ? 2 : 1;
      closeUnadj[k] = p * ratio;
      close[k] = p;
      tri[k] = t;
      volume[k] = Math.round((1e5 + rand() * 1e6) / ratio);
      const month = Math.floor(k / 63);
      if (pays && month !== lastDivMonth && k % 63 === 30) {
        lastDivMonth = month;
        if (k % 252 === 30) dividend *= 1 + 0.03 + rand() * 0.05;
        exDays.push(day);
        amounts.push(dividend * ratio);
      }
    }
    const facts = syntheticFacts(rand, dates[0], dates[n - 1], closeUnadj[0] * 5e6);
    out.push({
      permaticker,
      ticker: `SYN${s}`,
      dates,
      close,
      closeUnadj,
      volume,
      tri,
      dividends: {
        exDate: Int32Array.from(exDays),
        amount: Float64Array.from(amounts),
      },
      factRows: facts,
      facts: buildFactColumns(facts),
      delisted,
      splits: hasSplit ? [{ day: dates[splitIdx], ratio: 2 }] : [],
    });
  }
  return out;
}

function syntheticFacts(rand: () => number, firstDay: number, lastDay: number, scale: number): FactRow[] {
  const rows: FactRow[] = [];
  const firstYear = new Date(firstDay * 86_400_000).getUTCFullYear() - 1;
  const lastYear = new Date(lastDay * 86_400_000).getUTCFullYear();
  let revenue = scale * (0.2 + rand());
  let shares = Math.round(5e6 + rand() * 5e7);
  let equity = revenue * 2;
  let retained = revenue;
  const margin = 0.05 + rand() * 0.2;
  for (let y = firstYear; y <= lastYear; y++) {
    const sums: Record<string, number> = {};
    for (let q = 0; q < 4; q++) {
      const periodEnd = `${y}-${QUARTER_ENDS[q]}`;
      const periodStart = q === 0 ? `${y}-01-01` : fromEpochDay(toEpochDay(`${y}-${QUARTER_ENDS[q - 1]}`) + 1);
      const endDay = toEpochDay(periodEnd);
      const filedDay = endDay + 30 + Math.floor(rand() * (q === 3 ? 50 : 35));
      if (filedDay > lastDay) break;
      revenue *= 1 + (rand() - 0.45) * 0.08;
      const cost = revenue * (0.5 + rand() * 0.1);
      const opInc = revenue * margin * (0.8 + rand() * 0.4);
      const interest = revenue * 0.01;
      const pretax = opInc - interest;
      const tax = pretax * 0.21;
      const net = pretax - tax;
      const ocf = net * (1 + rand() * 0.4);
      const capex = revenue * 0.05;
      const dep = revenue * 0.03;
      shares = Math.round(shares * (1 + (rand() - 0.6) * 0.01));
      retained += net * 0.6;
      equity += net * 0.6;
      const assets = equity * (1.8 + rand() * 0.4);
      const flows: Record<string, number> = {
        revenue,
        cost_of_revenue: cost,
        gross_profit: revenue - cost,
        operating_income: opInc,
        interest_expense: interest,
        pretax_income: pretax,
        income_tax: tax,
        net_income: net,
        eps_diluted: net / shares,
        eps_basic: net / shares,
        depreciation: dep,
        operating_cash_flow: ocf,
        capex,
        dividends_paid: net * 0.3,
        share_buybacks: net * 0.1,
        shares_diluted_avg: shares,
        sga: revenue * 0.2,
        rnd: revenue * 0.05,
      };
      const isQ4 = q === 3;
      const accession = `0000${String(Math.floor(rand() * 1e6)).padStart(6, '0')}-${String(y).slice(2)}-${String(q + 1).padStart(6, '0')}`;
      const filed = fromEpochDay(filedDay);
      for (const [concept, value] of Object.entries(flows)) {
        sums[concept] = (sums[concept] ?? 0) + value;
        if (!isQ4)
          rows.push({
            concept,
            value,
            periodStart,
            periodEnd,
            fiscalPeriod: `Q${q + 1}`,
            filed,
            accession,
          });
        else
          rows.push({
            concept,
            value: concept === 'shares_diluted_avg' ? value : sums[concept],
            periodStart: `${y}-01-01`,
            periodEnd,
            fiscalPeriod: 'FY',
            filed,
            accession,
          });
      }
      const instants: Record<string, number> = {
        shares_outstanding: shares,
        cash: assets * 0.1,
        receivables: assets * 0.1,
        inventory: assets * 0.08,
        current_assets: assets * 0.35,
        total_assets: assets,
        current_liabilities: assets * 0.2,
        total_liabilities: assets - equity,
        long_term_debt: assets * 0.25,
        short_term_debt: assets * 0.03,
        equity,
        retained_earnings: retained,
      };
      for (const [concept, value] of Object.entries(instants)) {
        rows.push({
          concept,
          value,
          periodStart: null,
          periodEnd,
          fiscalPeriod: isQ4 ? 'FY' : `Q${q + 1}`,
          filed,
          accession,
        });
      }
    }
  }
  return rows;
}

import { toEpochDay, type IsoDate } from '../../dates';
import { FactColumnsBuilder } from '../store/market-columns';
import type { CodedRows } from '../store/typed-columns';
import { CONCEPTS, type Concept } from '../store/schema';
import type { FiscalQuarter } from './fiscal';
import { DEMO_SOURCE, type CompanyPlan } from './plan';
import type { Rng } from './random';

// Quarterly financial statements of one demo company, filed as 10-Q / 10-K facts.
// Revenue growth leans towards the company's usual price-to-sales ratio and margins follow the
// share price a little, so valuation multiples stay plausible as prices wander. Values are as
// reported at the time (share counts and EPS are not restated for later splits).

export type QuarterMarket = {
  /** Market value at the quarter end (or at listing for earlier quarters), dollars. */
  marketCap: number;
  /** Shares outstanding at the quarter end, in shares of that day. */
  shares: number;
  /** Cash dividends paid in the quarter, dollars. */
  dividendsPaid: number;
  /** Dollars spent on buybacks in the quarter (0 when the count grew). */
  buybacks: number;
  /** True in the company's last two years before a bankruptcy. */
  distressed: boolean;
};

type Statement = Record<Concept, number>;

const FLOWS = (Object.keys(CONCEPTS) as Concept[]).filter((c) => CONCEPTS[c].kind === 'flow');
const INSTANTS = (Object.keys(CONCEPTS) as Concept[]).filter((c) => CONCEPTS[c].kind === 'instant');
const PER_SHARE: Concept[] = ['eps_basic', 'eps_diluted'];

const thousands = (x: number) => Math.round(x / 1000) * 1000;
const cents = (x: number) => Math.round(x * 100) / 100;

export function generateFacts(rng: Rng, company: CompanyPlan, quarters: FiscalQuarter[], markets: QuarterMarket[]): CodedRows {
  if (quarters.length === 0) return new FactColumnsBuilder().finish();
  const s = company.sector;
  const priceToSales = 0.8 * s.priceToSales * Math.exp(0.45 * rng.normal());
  const growth = s.revenueGrowth + 0.04 * rng.normal();
  const grossMargin = Math.min(0.9, Math.max(0.08, s.grossMargin + 0.08 * rng.normal()));
  const rndShare = s.rndShare * Math.exp(0.4 * rng.normal());
  const unprofitable = rng.chance(0.1);
  const targetMargin = unprofitable
    ? -rng.between(0.02, 0.2)
    : Math.min(grossMargin - rndShare - 0.03, s.operatingMargin * Math.exp(0.35 * rng.normal()));
  const turnover = s.assetTurnover * Math.exp(0.3 * rng.normal());
  const leverage = Math.min(0.93, Math.max(0.15, s.leverage + 0.1 * rng.normal()));
  const cashShare = rng.between(0.04, 0.2);
  const debtShare = rng.between(0.3, 0.65);
  const receivableDays = rng.between(25, 70);
  const capexShare = rng.between(0.02, 0.09);
  const taxRate = rng.between(0.17, 0.25);

  let revenue = markets[0].marketCap / priceToSales / 4;
  let margin = targetMargin;
  let retained = 0;
  const statements: Statement[] = [];
  for (let q = 0; q < quarters.length; q++) {
    const m = markets[q];
    const deviation = Math.log(m.marketCap / (4 * revenue)) - Math.log(priceToSales);
    if (q > 0) revenue *= Math.exp(growth / 4 + 0.2 * deviation + 0.035 * rng.normal());
    const target = m.distressed ? -0.3 : targetMargin;
    margin = target + 0.75 * (margin - target) + 0.015 * rng.normal() + 0.01 * Math.max(-2, Math.min(2, deviation));
    const assets = (4 * revenue) / turnover;
    const equityShare = m.distressed ? Math.max(0.02, (1 - leverage) * 0.4) : 1 - leverage;
    const equity = assets * equityShare;
    const liabilities = assets - equity;
    const debt = liabilities * debtShare;
    const grossProfit = revenue * grossMargin;
    const rnd = revenue * rndShare;
    const operatingIncome = revenue * margin;
    const sga = Math.max(revenue * 0.02, grossProfit - rnd - operatingIncome);
    const interest = (debt * 0.05) / 4;
    const pretax = operatingIncome - interest;
    const tax = pretax > 0 ? pretax * taxRate : 0;
    const netIncome = pretax - tax;
    const dilutedShares = m.shares * rng.between(1.0, 1.03);
    const depreciation = assets * 0.012;
    const cash = assets * cashShare;
    const receivables = (4 * revenue * receivableDays) / 365;
    const inventory = 4 * revenue * s.inventoryShare;
    retained = q === 0 ? equity * 0.6 : retained + netIncome - m.dividendsPaid;
    statements.push(
      roundStatement({
        revenue,
        cost_of_revenue: revenue - grossProfit,
        gross_profit: grossProfit,
        sga,
        rnd,
        operating_income: grossProfit - sga - rnd,
        interest_expense: interest,
        pretax_income: grossProfit - sga - rnd - interest,
        income_tax: tax,
        net_income: grossProfit - sga - rnd - interest - tax,
        eps_basic: (grossProfit - sga - rnd - interest - tax) / m.shares,
        eps_diluted: (grossProfit - sga - rnd - interest - tax) / (netIncome > 0 ? dilutedShares : m.shares),
        depreciation,
        operating_cash_flow: netIncome + depreciation + revenue * 0.03 * rng.normal(),
        capex: revenue * capexShare,
        dividends_paid: m.dividendsPaid,
        share_buybacks: m.buybacks,
        shares_diluted_avg: netIncome > 0 ? dilutedShares : m.shares,
        shares_outstanding: m.shares,
        cash,
        receivables,
        inventory,
        current_assets: cash + receivables + inventory + assets * 0.05,
        total_assets: assets,
        current_liabilities: liabilities * rng.between(0.25, 0.4),
        total_liabilities: liabilities,
        long_term_debt: debt * 0.85,
        short_term_debt: debt * 0.15,
        equity,
        retained_earnings: retained,
      }),
    );
  }
  return toFacts(rng, company, quarters, statements);
}

function round(concept: Concept, value: number): number {
  if (PER_SHARE.includes(concept)) return cents(value);
  if (concept === 'shares_outstanding' || concept === 'shares_diluted_avg') return Math.round(value);
  return thousands(value);
}

// Rounded before the fiscal-year sums, so the four quarters add up to the year exactly.
function roundStatement(st: Statement): Statement {
  const out = { ...st };
  for (const c of Object.keys(out) as Concept[]) out[c] = round(c, out[c]);
  return out;
}

function toFacts(rng: Rng, company: CompanyPlan, quarters: FiscalQuarter[], statements: Statement[]): CodedRows {
  const facts = new FactColumnsBuilder();
  const sequence = new Map<number, number>();
  const accessionFor = (filed: IsoDate) => {
    const year = Number(filed.slice(0, 4));
    const next = (sequence.get(year) ?? rng.int(1, 300)) + rng.int(1, 9);
    sequence.set(year, next);
    return `${company.cik}-${String(year % 100).padStart(2, '0')}-${String(next).padStart(6, '0')}`;
  };
  for (let i = 0; i < quarters.length; i++) {
    const q = quarters[i];
    const st = statements[i];
    facts.filing({
      permaticker: company.permaticker,
      periodEnd: toEpochDay(q.periodEnd),
      fiscalYear: q.fiscalYear,
      form: q.form,
      filed: toEpochDay(q.filed),
      accession: accessionFor(q.filed),
      source: DEMO_SOURCE,
    });
    const start = toEpochDay(q.periodStart);
    for (const c of FLOWS) facts.add(c, round(c, st[c]), CONCEPTS[c].unit, start, q.fiscalPeriod);
    const instantPeriod = q.form === '10-K' ? 'FY' : q.fiscalPeriod;
    for (const c of INSTANTS) facts.add(c, round(c, st[c]), CONCEPTS[c].unit, null, instantPeriod);
    // The 10-K also reports the fiscal year, when all four of its quarters are known.
    if (q.fiscalPeriod === 'Q4' && i >= 3 && quarters[i - 3].fiscalPeriod === 'Q1' && quarters[i - 3].fiscalYear === q.fiscalYear) {
      const year = statements.slice(i - 3, i + 1);
      const sum = (c: Concept) => year.reduce((a, x) => a + x[c], 0);
      const avgShares = sum('shares_diluted_avg') / 4;
      const avgBasic = year.reduce((a, x) => a + x.shares_outstanding, 0) / 4;
      const fy: Statement = { ...st };
      for (const c of FLOWS) fy[c] = sum(c);
      fy.shares_diluted_avg = avgShares;
      fy.eps_basic = fy.net_income / avgBasic;
      fy.eps_diluted = fy.net_income / avgShares;
      const yearStart = toEpochDay(quarters[i - 3].periodStart);
      for (const c of FLOWS) facts.add(c, round(c, fy[c]), CONCEPTS[c].unit, yearStart, 'FY');
    }
  }
  return facts.finish();
}

import { CONCEPT_IDS, type Concept } from '../../market/store/schema';
import { FLOW } from './facts';
import { lastEnd, lowerBound, type FundamentalView, type Series, valueNear } from './fundamental-state';
import { indices, metricIndex } from './metric-index';
import { altmanInputs, piotroskiF } from './scores';
import { cagr, combine, growth, preferOr, quarterAt, quarterBack, ttmAt } from './ttm';

// Every metric that depends on filings only (raw values, TTM, growth, margins, returns on
// capital, balance-sheet ratios). Computed once per change of the known fact set and reused for
// every day until the next filing becomes known; price-based ratios read these slots.

const C = Object.fromEntries(CONCEPT_IDS.map((c, i) => [c, i])) as Record<Concept, number>;

const RAW = CONCEPT_IDS.map((c, i) =>
  FLOW[i]
    ? {
        ttm: metricIndex(`${c}_ttm`),
        q: metricIndex(`${c}_q`),
        fy: metricIndex(`${c}_fy`),
        latest: -1,
      }
    : { ttm: -1, q: -1, fy: metricIndex(`${c}_fy`), latest: metricIndex(c) },
);

const GROWTH_KEYS = ['revenue', 'gross_profit', 'operating_income', 'net_income', 'eps', 'fcf', 'ocf'] as const;
// Each family's slots as numbers: looked up by a name built per call, they cost a string and a
// keyed load apiece on every filing of every security.
const G = GROWTH_KEYS.map((k) => ({
  qoq: metricIndex(`${k}_growth_qoq`),
  yoyQ: metricIndex(`${k}_growth_yoy_q`),
  yoy: metricIndex(`${k}_growth_yoy`),
  cagr3: metricIndex(`${k}_cagr_3y`),
  cagr5: metricIndex(`${k}_cagr_5y`),
}));

// The line items' arithmetic, made once (not a closure per call).
const minus = (a: number, b: number) => a - b;
const plusAbs = (a: number, b: number) => a + Math.abs(b);

const I = indices([
  'ebitda_ttm',
  'fcf_ttm',
  'fcf_q',
  'fcf_fy',
  'total_debt',
  'net_debt',
  'working_capital',
  'gross_margin',
  'operating_margin',
  'net_margin',
  'pretax_margin',
  'ebitda_margin',
  'fcf_margin',
  'ocf_margin',
  'gross_margin_q',
  'operating_margin_q',
  'net_margin_q',
  'gross_margin_fy',
  'net_margin_fy',
  'roe',
  'roa',
  'roic',
  'roce',
  'asset_turnover',
  'tax_rate',
  'rnd_to_revenue',
  'sga_to_revenue',
  'capex_to_revenue',
  'cash_conversion',
  'debt_to_equity',
  'debt_to_assets',
  'liabilities_to_equity',
  'equity_to_assets',
  'current_ratio',
  'quick_ratio',
  'cash_ratio',
  'interest_coverage',
  'net_debt_to_ebitda',
  'ocf_to_debt',
  'piotroski_f',
  'equity_growth_yoy',
  'assets_growth_yoy',
  'shares_change_yoy',
  'payout_ratio',
  'fcf_payout_ratio',
  'last_period_end',
  'gross_profit_ttm',
  'gross_profit_q',
  'gross_profit_fy',
] as const);

/** Divides when the denominator is positive; NaN otherwise (a ratio over a negative base misleads). */
export function overPositive(a: number, b: number): number {
  return b > 0 ? a / b : Number.NaN;
}
/** a + b where a component that is missing counts as none only when the other is known. */
export function sumKnown(a: number, b: number): number {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  return a + b;
}

/** Capex, dividends and buybacks are outflows; importers may store them with either sign. */
function outflow(s: Series, cutoff: number): Series {
  const from = lowerBound(s.end, cutoff);
  // Made positive in place in its own copy (slice and map made two per series and filing).
  const val = s.val.slice(from);
  for (let i = 0; i < val.length; i++) val[i] = Math.abs(val[i]);
  return { end: s.end.slice(from), val };
}

/** Numbers that the price-dependent metrics need besides the row slots. */
export type FundamentalContext = {
  /** Period end of the shares_outstanding value used (for split adjustment), or NaN. */
  sharesEnd: number;
  /** Latest period end (quarter or balance sheet) known. */
  latestEnd: number;
  sharesOutstanding: number;
  ebitdaTtm: number;
  fcfTtm: number;
  buybacksTtm: number;
  dividendsPaidTtm: number;
  altman: ReturnType<typeof altmanInputs>;
};

/**
 * Fills the fundamental slots of `row` (which must be NaN-filled). `splitFactor(day)` is the
 * security's close_unadj / close on the last trading day on or before `day`, used to compare
 * share counts across splits.
 */
export function computeFundamentals(view: FundamentalView, row: Float64Array, splitFactor: (day: number) => number): FundamentalContext {
  const q = view.quarters;
  const y = view.years;
  const inst = view.instants;
  let eq = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < q.length; c++) if (FLOW[c]) eq = Math.max(eq, lastEnd(q[c]));
  let ei = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < inst.length; c++) ei = Math.max(ei, lastEnd(inst[c]));
  const ey = view.latestYearEnd;

  const ttm = (s: Series, end = eq, mean = false) => (Number.isFinite(end) ? ttmAt(s, end, mean) : Number.NaN);
  const qv = (s: Series, end = eq) => (Number.isFinite(end) ? quarterAt(s, end) : Number.NaN);
  const fy = (s: Series) => (Number.isFinite(ey) ? valueNear(s, ey) : Number.NaN);
  const bal = (c: Concept, back = 0) => (Number.isFinite(ei) ? valueNear(inst[C[c]], ei - back) : Number.NaN);
  const balFy = (c: Concept) => (Number.isFinite(ey) ? valueNear(inst[C[c]], ey) : Number.NaN);

  // Raw concepts.
  for (let c = 0; c < CONCEPT_IDS.length; c++) {
    const r = RAW[c];
    if (FLOW[c]) {
      row[r.ttm] = ttm(q[c], eq, CONCEPT_IDS[c] === 'shares_diluted_avg');
      row[r.q] = qv(q[c]);
      row[r.fy] = fy(y[c]);
    } else {
      row[r.latest] = bal(CONCEPT_IDS[c]);
      row[r.fy] = balFy(CONCEPT_IDS[c]);
    }
  }

  // Derived line items.
  const revenueQ = q[C.revenue];
  // Derived series only over the view's horizon, so their cost does not grow with history.
  const cut = view.cutoff;
  const grossQ = preferOr(q[C.gross_profit], combine(revenueQ, q[C.cost_of_revenue], minus, cut), cut);
  const grossY = preferOr(y[C.gross_profit], combine(y[C.revenue], y[C.cost_of_revenue], minus, cut), cut);
  const capexQ = outflow(q[C.capex], cut);
  const fcfQ = combine(q[C.operating_cash_flow], capexQ, minus, cut);
  const fcfY = combine(y[C.operating_cash_flow], outflow(y[C.capex], cut), minus, cut);
  const ebitdaQ = combine(q[C.operating_income], q[C.depreciation], plusAbs, cut);

  const revenue = ttm(revenueQ);
  const gross = ttm(grossQ);
  const opInc = ttm(q[C.operating_income]);
  const netInc = ttm(q[C.net_income]);
  const pretax = ttm(q[C.pretax_income]);
  const tax = ttm(q[C.income_tax]);
  const ocf = ttm(q[C.operating_cash_flow]);
  const capex = ttm(capexQ);
  const fcf = ttm(fcfQ);
  const ebitda = ttm(ebitdaQ);
  const interest = ttm(outflow(q[C.interest_expense], cut));
  const divPaid = ttm(outflow(q[C.dividends_paid], cut));
  const buybacks = ttm(outflow(q[C.share_buybacks], cut));

  row[I.gross_profit_ttm] = gross;
  row[I.gross_profit_q] = qv(grossQ);
  row[I.gross_profit_fy] = fy(grossY);
  row[I.ebitda_ttm] = ebitda;
  row[I.fcf_ttm] = fcf;
  row[I.fcf_q] = qv(fcfQ);
  row[I.fcf_fy] = fy(fcfY);

  const cash = bal('cash');
  const equity = bal('equity');
  const assets = bal('total_assets');
  const liabilities = bal('total_liabilities');
  const curAssets = bal('current_assets');
  const curLiab = bal('current_liabilities');
  const ltd = bal('long_term_debt');
  const debt = sumKnown(ltd, bal('short_term_debt'));
  const inventory = bal('inventory');
  row[I.total_debt] = debt;
  row[I.net_debt] = debt - cash;
  row[I.working_capital] = curAssets - curLiab;

  // Growth families.
  const growthSeries: Series[] = [
    revenueQ,
    grossQ,
    q[C.operating_income],
    q[C.net_income],
    q[C.eps_diluted],
    fcfQ,
    q[C.operating_cash_flow],
  ];
  if (Number.isFinite(eq)) {
    for (let k = 0; k < growthSeries.length; k++) {
      const s = growthSeries[k];
      const g = G[k];
      const now = quarterAt(s, eq);
      row[g.qoq] = growth(now, quarterAt(s, quarterBack(eq, 1)));
      row[g.yoyQ] = growth(now, quarterAt(s, quarterBack(eq, 4)));
      const t = ttmAt(s, eq);
      row[g.yoy] = growth(t, ttmAt(s, quarterBack(eq, 4)));
      row[g.cagr3] = cagr(t, ttmAt(s, quarterBack(eq, 12)), 3);
      row[g.cagr5] = cagr(t, ttmAt(s, quarterBack(eq, 20)), 5);
    }
  }

  // Profitability.
  row[I.gross_margin] = overPositive(gross, revenue);
  row[I.operating_margin] = overPositive(opInc, revenue);
  row[I.net_margin] = overPositive(netInc, revenue);
  row[I.pretax_margin] = overPositive(pretax, revenue);
  row[I.ebitda_margin] = overPositive(ebitda, revenue);
  row[I.fcf_margin] = overPositive(fcf, revenue);
  row[I.ocf_margin] = overPositive(ocf, revenue);
  const revQ = qv(revenueQ);
  row[I.gross_margin_q] = overPositive(qv(grossQ), revQ);
  row[I.operating_margin_q] = overPositive(qv(q[C.operating_income]), revQ);
  row[I.net_margin_q] = overPositive(qv(q[C.net_income]), revQ);
  const revY = fy(y[C.revenue]);
  row[I.gross_margin_fy] = overPositive(fy(grossY), revY);
  row[I.net_margin_fy] = overPositive(fy(y[C.net_income]), revY);
  row[I.roe] = overPositive(netInc, equity);
  row[I.roa] = overPositive(netInc, assets);
  const taxRate = pretax > 0 && Number.isFinite(tax) ? Math.min(0.5, Math.max(0, tax / pretax)) : 0.21;
  row[I.tax_rate] = overPositive(tax, pretax);
  row[I.roic] = overPositive(opInc * (1 - taxRate), equity + debt - cash);
  row[I.roce] = overPositive(opInc, assets - curLiab);
  row[I.asset_turnover] = overPositive(revenue, assets);
  row[I.rnd_to_revenue] = overPositive(ttm(q[C.rnd]), revenue);
  row[I.sga_to_revenue] = overPositive(ttm(q[C.sga]), revenue);
  row[I.capex_to_revenue] = overPositive(capex, revenue);
  row[I.cash_conversion] = overPositive(ocf, netInc);

  // Health.
  row[I.debt_to_equity] = overPositive(debt, equity);
  row[I.debt_to_assets] = overPositive(debt, assets);
  row[I.liabilities_to_equity] = overPositive(liabilities, equity);
  row[I.equity_to_assets] = overPositive(equity, assets);
  row[I.current_ratio] = overPositive(curAssets, curLiab);
  row[I.quick_ratio] = overPositive(curAssets - (Number.isNaN(inventory) ? 0 : inventory), curLiab);
  row[I.cash_ratio] = overPositive(cash, curLiab);
  row[I.interest_coverage] = overPositive(opInc, interest);
  row[I.net_debt_to_ebitda] = overPositive(debt - cash, ebitda);
  row[I.ocf_to_debt] = overPositive(ocf, debt);

  // Year-over-year balance-sheet changes.
  row[I.equity_growth_yoy] = growth(equity, bal('equity', 365));
  row[I.assets_growth_yoy] = growth(assets, bal('total_assets', 365));
  const sharesNow = bal('shares_outstanding');
  const sharesThen = bal('shares_outstanding', 365);
  row[I.shares_change_yoy] = growth(sharesNow * splitFactor(ei), sharesThen * splitFactor(ei - 365));

  row[I.payout_ratio] = overPositive(divPaid, netInc);
  row[I.fcf_payout_ratio] = overPositive(divPaid, fcf);
  row[I.last_period_end] = Number.isFinite(view.latestEnd) ? view.latestEnd : Number.NaN;

  // Piotroski: this year's TTM against last year's, balance sheets a year apart.
  const eqBack = Number.isFinite(eq) ? quarterBack(eq, 4) : Number.NaN;
  row[I.piotroski_f] = piotroskiF({
    netIncome: netInc,
    netIncomePrev: ttm(q[C.net_income], eqBack),
    ocf,
    assets,
    assetsPrev: bal('total_assets', 365),
    ltd,
    ltdPrev: bal('long_term_debt', 365),
    currentRatio: overPositive(curAssets, curLiab),
    currentRatioPrev: overPositive(bal('current_assets', 365), bal('current_liabilities', 365)),
    shares: sharesNow * splitFactor(ei),
    sharesPrev: sharesThen * splitFactor(ei - 365),
    grossMargin: overPositive(gross, revenue),
    grossMarginPrev: overPositive(ttm(grossQ, eqBack), ttm(revenueQ, eqBack)),
    revenue,
    revenuePrev: ttm(revenueQ, eqBack),
  });

  return {
    sharesEnd: Number.isNaN(sharesNow) ? Number.NaN : ei,
    latestEnd: view.latestEnd,
    sharesOutstanding: sharesNow,
    ebitdaTtm: ebitda,
    fcfTtm: fcf,
    buybacksTtm: buybacks,
    dividendsPaidTtm: divPaid,
    altman: altmanInputs({
      curAssets,
      curLiab,
      retained: bal('retained_earnings'),
      ebit: opInc,
      assets,
      liabilities,
      revenue,
    }),
  };
}

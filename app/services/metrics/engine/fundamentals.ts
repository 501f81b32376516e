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

// The ends are arguments, not captured: closures over them, made on every call of
// computeFundamentals, were ~3 % of an evaluator thread's time (tsx names each one as it is made).
function ttmOrNaN(s: Series, end: number, mean = false): number {
  return Number.isFinite(end) ? ttmAt(s, end, mean) : Number.NaN;
}
function quarterOrNaN(s: Series, end: number): number {
  return Number.isFinite(end) ? quarterAt(s, end) : Number.NaN;
}
function nearOrNaN(s: Series, end: number): number {
  return Number.isFinite(end) ? valueNear(s, end) : Number.NaN;
}
const SHARES_DILUTED_AVG = C.shares_diluted_avg;

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

  // Raw concepts.
  for (let c = 0; c < CONCEPT_IDS.length; c++) {
    const r = RAW[c];
    if (FLOW[c]) {
      row[r.ttm] = ttmOrNaN(q[c], eq, c === SHARES_DILUTED_AVG);
      row[r.q] = quarterOrNaN(q[c], eq);
      row[r.fy] = nearOrNaN(y[c], ey);
    } else {
      row[r.latest] = nearOrNaN(inst[c], ei);
      row[r.fy] = nearOrNaN(inst[c], ey);
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

  const revenue = ttmOrNaN(revenueQ, eq);
  const gross = ttmOrNaN(grossQ, eq);
  const opInc = ttmOrNaN(q[C.operating_income], eq);
  const netInc = ttmOrNaN(q[C.net_income], eq);
  const pretax = ttmOrNaN(q[C.pretax_income], eq);
  const tax = ttmOrNaN(q[C.income_tax], eq);
  const ocf = ttmOrNaN(q[C.operating_cash_flow], eq);
  const capex = ttmOrNaN(capexQ, eq);
  const fcf = ttmOrNaN(fcfQ, eq);
  const ebitda = ttmOrNaN(ebitdaQ, eq);
  const interest = ttmOrNaN(outflow(q[C.interest_expense], cut), eq);
  const divPaid = ttmOrNaN(outflow(q[C.dividends_paid], cut), eq);
  const buybacks = ttmOrNaN(outflow(q[C.share_buybacks], cut), eq);

  row[I.gross_profit_ttm] = gross;
  row[I.gross_profit_q] = quarterOrNaN(grossQ, eq);
  row[I.gross_profit_fy] = nearOrNaN(grossY, ey);
  row[I.ebitda_ttm] = ebitda;
  row[I.fcf_ttm] = fcf;
  row[I.fcf_q] = quarterOrNaN(fcfQ, eq);
  row[I.fcf_fy] = nearOrNaN(fcfY, ey);

  const cash = nearOrNaN(inst[C.cash], ei);
  const equity = nearOrNaN(inst[C.equity], ei);
  const assets = nearOrNaN(inst[C.total_assets], ei);
  const liabilities = nearOrNaN(inst[C.total_liabilities], ei);
  const curAssets = nearOrNaN(inst[C.current_assets], ei);
  const curLiab = nearOrNaN(inst[C.current_liabilities], ei);
  const ltd = nearOrNaN(inst[C.long_term_debt], ei);
  const debt = sumKnown(ltd, nearOrNaN(inst[C.short_term_debt], ei));
  const inventory = nearOrNaN(inst[C.inventory], ei);
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
  const revQ = quarterOrNaN(revenueQ, eq);
  row[I.gross_margin_q] = overPositive(quarterOrNaN(grossQ, eq), revQ);
  row[I.operating_margin_q] = overPositive(quarterOrNaN(q[C.operating_income], eq), revQ);
  row[I.net_margin_q] = overPositive(quarterOrNaN(q[C.net_income], eq), revQ);
  const revY = nearOrNaN(y[C.revenue], ey);
  row[I.gross_margin_fy] = overPositive(nearOrNaN(grossY, ey), revY);
  row[I.net_margin_fy] = overPositive(nearOrNaN(y[C.net_income], ey), revY);
  row[I.roe] = overPositive(netInc, equity);
  row[I.roa] = overPositive(netInc, assets);
  const taxRate = pretax > 0 && Number.isFinite(tax) ? Math.min(0.5, Math.max(0, tax / pretax)) : 0.21;
  row[I.tax_rate] = overPositive(tax, pretax);
  row[I.roic] = overPositive(opInc * (1 - taxRate), equity + debt - cash);
  row[I.roce] = overPositive(opInc, assets - curLiab);
  row[I.asset_turnover] = overPositive(revenue, assets);
  row[I.rnd_to_revenue] = overPositive(ttmOrNaN(q[C.rnd], eq), revenue);
  row[I.sga_to_revenue] = overPositive(ttmOrNaN(q[C.sga], eq), revenue);
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
  row[I.equity_growth_yoy] = growth(equity, nearOrNaN(inst[C.equity], ei - 365));
  row[I.assets_growth_yoy] = growth(assets, nearOrNaN(inst[C.total_assets], ei - 365));
  const sharesNow = nearOrNaN(inst[C.shares_outstanding], ei);
  const sharesThen = nearOrNaN(inst[C.shares_outstanding], ei - 365);
  row[I.shares_change_yoy] = growth(sharesNow * splitFactor(ei), sharesThen * splitFactor(ei - 365));

  row[I.payout_ratio] = overPositive(divPaid, netInc);
  row[I.fcf_payout_ratio] = overPositive(divPaid, fcf);
  row[I.last_period_end] = Number.isFinite(view.latestEnd) ? view.latestEnd : Number.NaN;

  // Piotroski: this year's TTM against last year's, balance sheets a year apart.
  const eqBack = Number.isFinite(eq) ? quarterBack(eq, 4) : Number.NaN;
  row[I.piotroski_f] = piotroskiF({
    netIncome: netInc,
    netIncomePrev: ttmOrNaN(q[C.net_income], eqBack),
    ocf,
    assets,
    assetsPrev: nearOrNaN(inst[C.total_assets], ei - 365),
    ltd,
    ltdPrev: nearOrNaN(inst[C.long_term_debt], ei - 365),
    currentRatio: overPositive(curAssets, curLiab),
    currentRatioPrev: overPositive(nearOrNaN(inst[C.current_assets], ei - 365), nearOrNaN(inst[C.current_liabilities], ei - 365)),
    shares: sharesNow * splitFactor(ei),
    sharesPrev: sharesThen * splitFactor(ei - 365),
    grossMargin: overPositive(gross, revenue),
    grossMarginPrev: overPositive(ttmOrNaN(grossQ, eqBack), ttmOrNaN(revenueQ, eqBack)),
    revenue,
    revenuePrev: ttmOrNaN(revenueQ, eqBack),
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
      retained: nearOrNaN(inst[C.retained_earnings], ei),
      ebit: opInc,
      assets,
      liabilities,
      revenue,
    }),
  };
}

import { overPositive } from './fundamentals';
import type { FundamentalContext } from './fundamentals';
import { indices } from './metric-index';
import { altmanZ } from './scores';

// Metrics that combine the day's price with the known filings: size, multiples, yields, per-share
// values. Share counts are restated for splits between the balance-sheet date and the day.

const I = indices([
  'market_cap',
  'enterprise_value',
  'shares_outstanding_adj',
  'pe_ttm',
  'pe_fy',
  'ps_ttm',
  'pb',
  'pcf_ttm',
  'pfcf_ttm',
  'ev_sales_ttm',
  'ev_ebitda_ttm',
  'ev_ebit_ttm',
  'ev_fcf_ttm',
  'ev_gross_profit_ttm',
  'earnings_yield',
  'ebit_ev_yield',
  'fcf_yield',
  'sales_yield',
  'book_to_market',
  'peg_3y',
  'cash_to_market_cap',
  'altman_z',
  'eps_ttm',
  'sales_per_share',
  'book_value_per_share',
  'fcf_per_share',
  'ocf_per_share',
  'cash_per_share',
  'ebitda_per_share',
  'buyback_yield',
  'shareholder_yield',
  'net_income_ttm',
  'net_income_fy',
  'revenue_ttm',
  'equity',
  'operating_cash_flow_ttm',
  'operating_income_ttm',
  'gross_profit_ttm',
  'cash',
  'total_debt',
  'eps_cagr_3y',
] as const);

/**
 * `sharesFactor` restates the filed share count into the day's shares (per-share metrics);
 * `priceSharesFactor` into the shares of the price's basis (market cap): the same for prices as
 * traded, the basis of the series' adjustment for split-adjusted prices without a raw close.
 */
export function computeValuation(
  row: Float64Array,
  ctx: FundamentalContext,
  price: number,
  sharesFactor: number,
  priceSharesFactor = sharesFactor,
): void {
  const shares = ctx.sharesOutstanding * sharesFactor;
  const priceShares = ctx.sharesOutstanding * priceSharesFactor;
  const mcap = priceShares > 0 && price > 0 ? priceShares * price : Number.NaN;
  row[I.shares_outstanding_adj] = shares > 0 ? shares : Number.NaN;
  row[I.market_cap] = mcap;
  const debt = row[I.total_debt];
  const cash = row[I.cash];
  // EV needs the balance sheet; a company with no debt filed and no cash filed has no EV.
  const ev =
    Number.isNaN(debt) && Number.isNaN(cash) ? Number.NaN : mcap + (Number.isNaN(debt) ? 0 : debt) - (Number.isNaN(cash) ? 0 : cash);
  row[I.enterprise_value] = ev;

  const ni = row[I.net_income_ttm];
  const rev = row[I.revenue_ttm];
  const ocf = row[I.operating_cash_flow_ttm];
  const ebit = row[I.operating_income_ttm];
  const fcf = ctx.fcfTtm;
  row[I.pe_ttm] = overPositive(mcap, ni);
  row[I.pe_fy] = overPositive(mcap, row[I.net_income_fy]);
  row[I.ps_ttm] = overPositive(mcap, rev);
  row[I.pb] = overPositive(mcap, row[I.equity]);
  row[I.pcf_ttm] = overPositive(mcap, ocf);
  row[I.pfcf_ttm] = overPositive(mcap, fcf);
  row[I.ev_sales_ttm] = overPositive(ev, rev);
  row[I.ev_ebitda_ttm] = overPositive(ev, ctx.ebitdaTtm);
  row[I.ev_ebit_ttm] = overPositive(ev, ebit);
  row[I.ev_fcf_ttm] = overPositive(ev, fcf);
  row[I.ev_gross_profit_ttm] = overPositive(ev, row[I.gross_profit_ttm]);
  row[I.earnings_yield] = overPositive(ni, mcap);
  row[I.ebit_ev_yield] = overPositive(ebit, ev);
  row[I.fcf_yield] = overPositive(fcf, mcap);
  row[I.sales_yield] = overPositive(rev, mcap);
  row[I.book_to_market] = overPositive(row[I.equity], mcap);
  row[I.cash_to_market_cap] = overPositive(cash, mcap);
  const g = row[I.eps_cagr_3y];
  row[I.peg_3y] = g > 0 ? row[I.pe_ttm] / (g * 100) : Number.NaN;
  row[I.altman_z] = altmanZ(ctx.altman, mcap);

  row[I.eps_ttm] = overPositive(ni, shares);
  row[I.sales_per_share] = overPositive(rev, shares);
  row[I.book_value_per_share] = overPositive(row[I.equity], shares);
  row[I.fcf_per_share] = overPositive(fcf, shares);
  row[I.ocf_per_share] = overPositive(ocf, shares);
  row[I.cash_per_share] = overPositive(cash, shares);
  row[I.ebitda_per_share] = overPositive(ctx.ebitdaTtm, shares);

  row[I.buyback_yield] = overPositive(ctx.buybacksTtm, mcap);
  const returned =
    Number.isNaN(ctx.buybacksTtm) && Number.isNaN(ctx.dividendsPaidTtm)
      ? Number.NaN
      : (Number.isNaN(ctx.buybacksTtm) ? 0 : ctx.buybacksTtm) + (Number.isNaN(ctx.dividendsPaidTtm) ? 0 : ctx.dividendsPaidTtm);
  row[I.shareholder_yield] = overPositive(returned, mcap);
}

// Composite scores from the literature, with every input required: a score computed from part
// of its inputs would rank a company on a number that means something else.

export type PiotroskiInputs = {
  netIncome: number;
  netIncomePrev: number;
  ocf: number;
  assets: number;
  assetsPrev: number;
  ltd: number;
  ltdPrev: number;
  currentRatio: number;
  currentRatioPrev: number;
  shares: number;
  sharesPrev: number;
  grossMargin: number;
  grossMarginPrev: number;
  revenue: number;
  revenuePrev: number;
};

/** Piotroski (2000) F-score, 0–9; NaN when any input is missing. */
export function piotroskiF(x: PiotroskiInputs): number {
  for (const v of Object.values(x)) if (!Number.isFinite(v)) return Number.NaN;
  if (!(x.assets > 0) || !(x.assetsPrev > 0)) return Number.NaN;
  const roa = x.netIncome / x.assets;
  const roaPrev = x.netIncomePrev / x.assetsPrev;
  let score = 0;
  if (roa > 0) score++;
  if (x.ocf > 0) score++;
  if (roa > roaPrev) score++;
  if (x.ocf > x.netIncome) score++;
  if (x.ltd / x.assets < x.ltdPrev / x.assetsPrev) score++;
  if (x.currentRatio > x.currentRatioPrev) score++;
  if (x.shares <= x.sharesPrev) score++;
  if (x.grossMargin > x.grossMarginPrev) score++;
  if (x.revenue / x.assets > x.revenuePrev / x.assetsPrev) score++;
  return score;
}

export type AltmanInputs = {
  curAssets: number;
  curLiab: number;
  retained: number;
  ebit: number;
  assets: number;
  liabilities: number;
  revenue: number;
};

export function altmanInputs(x: AltmanInputs): AltmanInputs {
  return x;
}

/** Altman (1968) Z-score for public companies; NaN when any input is missing. */
export function altmanZ(x: AltmanInputs, marketCap: number): number {
  const { curAssets, curLiab, retained, ebit, assets, liabilities, revenue } = x;
  if (![curAssets, curLiab, retained, ebit, assets, liabilities, revenue, marketCap].every(Number.isFinite)) return Number.NaN;
  if (!(assets > 0) || !(liabilities > 0)) return Number.NaN;
  return (
    1.2 * ((curAssets - curLiab) / assets) +
    1.4 * (retained / assets) +
    3.3 * (ebit / assets) +
    0.6 * (marketCap / liabilities) +
    1.0 * (revenue / assets)
  );
}

import { mixSeed, Rng } from './random';
import { SECTORS } from './sectors';

// Common return factors: one market and one per sector, each a GARCH(1,1) process with
// Student-t innovations, so calm and turbulent periods are shared across stocks the way
// they are in real markets (correlations rise in sell-offs).

export type Garch = { dailyVol: number; alpha: number; beta: number };

/** Daily returns of a GARCH(1,1) process with long-run volatility `dailyVol`. */
export function garchSeries(rng: Rng, length: number, g: Garch, drift: number): Float64Array {
  const out = new Float64Array(length);
  const longRun = g.dailyVol * g.dailyVol;
  const omega = longRun * (1 - g.alpha - g.beta);
  let variance = longRun;
  let shock = 0;
  for (let t = 0; t < length; t++) {
    variance = omega + g.alpha * shock * shock + g.beta * variance;
    shock = Math.sqrt(variance) * rng.studentT6();
    out[t] = drift + shock;
  }
  return out;
}

export type Factors = { market: Float64Array; sectors: Float64Array[] };

const YEAR = 252;
export const MARKET_GARCH: Garch = { dailyVol: 0.15 / Math.sqrt(YEAR), alpha: 0.09, beta: 0.895 };
const SECTOR_GARCH: Garch = { dailyVol: 0.09 / Math.sqrt(YEAR), alpha: 0.07, beta: 0.91 };
// About 7 % a year for the market, before the volatility drag.
const MARKET_DRIFT = 0.08 / YEAR;

export function generateFactors(seed: number, days: number): Factors {
  const market = garchSeries(new Rng(mixSeed(seed, 0x4d4b54)), days, MARKET_GARCH, MARKET_DRIFT);
  const sectors = SECTORS.map((_, i) => garchSeries(new Rng(mixSeed(seed, 0x534543, i)), days, SECTOR_GARCH, 0));
  return { market, sectors };
}

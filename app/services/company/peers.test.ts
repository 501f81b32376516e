import { describe, expect, it } from 'vitest';
import type { MetricSnapshot } from '../metrics/engine/types';
import { PEER_METRICS, selectPeers, type PeerCandidate } from './peers';

/** A snapshot on a date: one row per company with a value, NaN where the company has none. */
function snapshot(marketCaps: Record<number, number>): MetricSnapshot {
  const ids = Object.keys(marketCaps)
    .map(Number)
    .sort((a, b) => a - b);
  const values: Record<string, Float64Array> = {};
  for (const m of PEER_METRICS) values[m] = Float64Array.from(ids, (id) => (m === 'market_cap' ? marketCaps[id] : id / 10));
  return { date: '2020-06-30', day: 18443, permatickers: Int32Array.from(ids), values };
}

const c = (permaticker: number, sector: string | null, industry: string | null): PeerCandidate => ({
  permaticker,
  ticker: `T${permaticker}`,
  name: `Company ${permaticker}`,
  sector,
  industry,
});

const company = { permaticker: 1, sector: 'Technology', industry: 'Software' };
const universe = [
  c(1, 'Technology', 'Software'),
  c(2, 'Technology', 'Software'),
  c(3, 'Technology', 'Software'),
  c(4, 'Technology', 'Semiconductors'),
  c(5, 'Technology', 'Semiconductors'),
  c(6, 'Energy', 'Oil'),
  c(7, 'Technology', 'Software'),
];

describe('peer selection', () => {
  it('takes the same industry first, largest first, then fills from the sector, never the company itself', () => {
    const snap = snapshot({ 1: 900, 2: 100, 3: 300, 4: 500, 5: 50, 6: 9000, 7: 200 });
    const peers = selectPeers(company, universe, snap, 4);
    expect(peers.map((p) => [p.permaticker, p.match])).toEqual([
      [3, 'industry'],
      [7, 'industry'],
      [2, 'industry'],
      [4, 'sector'],
    ]);
    expect(peers[0].values).toEqual({ market_cap: 300, pe_ttm: 0.3, ev_ebitda_ttm: 0.3, ps_ttm: 0.3, revenue_growth_yoy: 0.3 });
  });

  it('keeps only industry peers when there are enough of them', () => {
    const snap = snapshot({ 2: 100, 3: 300, 4: 5000, 7: 200 });
    expect(selectPeers(company, universe, snap, 2).map((p) => p.permaticker)).toEqual([3, 7]);
  });

  it('respects the as-of date: companies without a market cap in that date’s snapshot are left out', () => {
    // Companies 3 and 7 were not listed yet (no row), 2 had no price that day (NaN).
    const snap = snapshot({ 1: 900, 2: Number.NaN, 4: 500, 5: 50 });
    expect(selectPeers(company, universe, snap).map((p) => [p.permaticker, p.match])).toEqual([
      [4, 'sector'],
      [5, 'sector'],
    ]);
  });

  it('falls back to the sector when the industry is unknown, and finds nothing without either', () => {
    const snap = snapshot({ 2: 100, 4: 500, 6: 9000 });
    expect(selectPeers({ permaticker: 1, sector: 'Technology', industry: null }, universe, snap).map((p) => p.permaticker)).toEqual([4, 2]);
    expect(selectPeers({ permaticker: 1, sector: null, industry: null }, universe, snap)).toEqual([]);
  });
});

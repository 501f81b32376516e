import { describe, expect, it } from 'vitest';
import { explainSecurity } from './explain';
import { matchScreen } from './run';
import { setup } from './test-universe';

// Ten technology and five energy companies; `roe in top 20% of sector` keeps the best two of ten
// in technology and the best one of five in energy, ties pass together, n/a never ranks.

const tech = [0.3, 0.25, 0.25, 0.2, 0.15, 0.1, 0.05, 0, -0.05, null];
const energy = [0.1, 0.09, 0.08, 0.07, 0.06];
const u = setup([
  ...tech.map((roe, i) => ({
    permaticker: 100 + i,
    ticker: `T${i}`,
    sector: 'Technology',
    industry: i < 5 ? 'Software' : 'Hardware',
    values: { roe },
  })),
  ...energy.map((roe, i) => ({ permaticker: 200 + i, ticker: `E${i}`, sector: 'Energy', industry: 'Oil', values: { roe } })),
]);
const pass = (rule: string) => Array.from(matchScreen(u.compile([rule]), u.prepared).ranked, (r) => u.prepared.ticker[r]).sort();

describe('percentile rank within a group', () => {
  it('top 20% of sector: ties at the cut pass together; n/a is not counted', () => {
    // Technology has 9 values: 20% of 9 = 1.8 → positions 0 and 1; T1 and T2 tie at position 1.
    expect(pass('roe in top 20% of sector')).toEqual(['E0', 'T0', 'T1', 'T2']);
  });
  it('top 20% of the universe ranks everyone together', () => {
    // 14 values: 2.8 → positions 0..2 (T0, T1/T2 tied at 1); T3 is at 3.
    expect(pass('roe in top 20% of universe')).toEqual(['T0', 'T1', 'T2']);
  });
  it('bottom 20% of industry', () => {
    // Software (T0–T4) keeps its worst, T4; Hardware (0.1, 0.05, 0, -0.05; T9 is n/a) keeps T8; Oil keeps E4.
    expect(pass('roe in bottom 20% of industry')).toEqual(['E4', 'T4', 'T8']);
  });
  it('ranks within the universe only, not the rows other rules kept', () => {
    expect(pass('roe in top 100% of sector')).toHaveLength(14);
    const m = matchScreen(u.compile(['roe in top 20% of sector'], { universe: { sectors: ['Energy'] } }), u.prepared);
    expect(Array.from(m.ranked, (r) => u.prepared.ticker[r])).toEqual(['E0']);
  });
  it('explains the position', () => {
    const why = explainSecurity(u.compile(['roe in top 20% of sector']), u.prepared, 102);
    expect(why.rules[0]).toMatchObject({ passes: true, detail: 'roe is 25.00%: top 2 of 9 in Technology' });
    const none = explainSecurity(u.compile(['roe in top 20% of sector']), u.prepared, 109);
    expect(none.rules[0]).toMatchObject({ passes: false, detail: 'roe is n/a (not ranked)' });
  });
});

import { describe, expect, it } from 'vitest';
import { METHODOLOGY } from './engine/methodology';
import { methodologyAnchors, parseMethodology, slug } from './methodology-sections';
import { STATISTIC_ROWS } from './statistics-rows';

describe('the methodology page', () => {
  const m = parseMethodology();

  it('has a heading for every paragraph and every definition of the text', () => {
    expect(m.title).toBe('How a backtest is run');
    const terms = m.sections.map((s) => s.term);
    expect(terms).toEqual(
      expect.arrayContaining([
        'Calendar',
        'Signals',
        'Snapshots',
        'Selection',
        'Weights',
        'Trades',
        'Valuation',
        'Benchmark',
        'Survivors only',
        'Statistics',
      ]),
    );
    const statistics = m.sections.find((s) => s.id === 'statistics');
    expect(statistics?.definitions.map((d) => d.term)).toEqual(
      expect.arrayContaining(['Total return', 'CAGR', 'Sharpe', 'Drawdown', 'Alpha (Jensen)', 'Cost drag']),
    );
    // Nothing of the text is lost on the way: every line's words are in some section.
    const rendered = m.sections.flatMap((s) => [s.term, s.text, ...s.definitions.flatMap((d) => [d.term, d.text])]).join(' ');
    for (const word of METHODOLOGY.split(/\s+/).filter((w) => /^[a-z]{6,}$/.test(w))) expect(rendered).toContain(word);
  });

  it('states the clock, the snapshot rule, the lookbacks and the survivors-only comparison', () => {
    const text = (id: string) => m.sections.find((s) => s.id === id)?.text ?? '';
    expect(text('signals')).toMatch(/last trading day of each period on or after the start date/);
    expect(text('signals')).toMatch(/prices up to and including that close, facts filed before that day/);
    expect(text('snapshots')).toMatch(/snapshot of the signal day itself, never an earlier one/);
    expect(text('lookbacks')).toMatch(/counts exchange trading days, not a stock's own price bars/);
    expect(text('trades')).toMatch(/close of the next trading day after the signal/);
    expect(text('survivors-only')).toMatch(/still listed at the end/);
  });

  it('has the anchor of every statistic the results link to', () => {
    const anchors = methodologyAnchors(m);
    for (const row of STATISTIC_ROWS) expect(anchors, `${row.key} → #${row.anchor}`).toContain(row.anchor);
    expect(anchors).toContain('survivors-only');
    expect(anchors).toContain('monthly-and-yearly-returns');
  });

  it('makes URL-safe anchors and unique ones', () => {
    expect(slug('Alpha (Jensen)')).toBe('alpha-jensen');
    expect(slug('  Risk-free rate ')).toBe('risk-free-rate');
    const ids = m.sections.flatMap((s) => [s.id, ...s.definitions.map((d) => d.id)]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

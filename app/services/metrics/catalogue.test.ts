import { describe, expect, it } from 'vitest';
import { CONCEPT_IDS } from '../market/store/schema';
import { CATEGORY_LABELS, getMetric, METRICS } from './catalogue';

describe('metrics catalogue', () => {
  it('has at least 150 metrics with unique snake_case ids', () => {
    expect(METRICS.length).toBeGreaterThanOrEqual(150);
    const ids = METRICS.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
  });

  it('covers every category and every concept', () => {
    for (const c of Object.keys(CATEGORY_LABELS)) expect(METRICS.some((m) => m.category === c)).toBe(true);
    for (const c of CONCEPT_IDS) expect(getMetric(c) ?? getMetric(`${c}_ttm`)).toBeDefined();
    for (const id of [
      'pe_ttm',
      'revenue_ttm',
      'ret_12m',
      'sma200',
      'ev_ebitda_ttm',
      'fcf_yield',
      'altman_z',
      'piotroski_f',
      'dividend_yield',
      'rsi14',
      'beta_1y',
      'roic',
      'revenue_cagr_5y',
    ]) {
      expect(getMetric(id), id).toBeDefined();
    }
  });

  it('defines every metric completely', () => {
    for (const m of METRICS) {
      expect(m.label.length, m.id).toBeGreaterThan(0);
      expect(m.definition.length, m.id).toBeGreaterThan(10);
      expect([true, false, null]).toContain(m.higherIsBetter);
    }
  });
});

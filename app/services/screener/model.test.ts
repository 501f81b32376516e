import { describe, expect, it } from 'vitest';
import { MAX_RULES, ScreenSchema, displayColumns, ruleFromText, ruleToText } from './model';
import { screenFromJson, screenFromSearchParams } from './url';

describe('screen model', () => {
  it('reads each rule kind from its text', () => {
    expect(ruleFromText('pe_ttm < 15')).toEqual({ kind: 'value', metric: 'pe_ttm', op: '<', value: 15 });
    expect(ruleFromText('price > 1.05 * sma200')).toEqual({ kind: 'compare', left: 'price', op: '>', factor: 1.05, right: 'sma200' });
    expect(ruleFromText('price >= sma50')).toEqual({ kind: 'compare', left: 'price', op: '>=', factor: 1, right: 'sma50' });
    expect(ruleFromText('dividend_yield between 0.02 and 0.08')).toEqual({
      kind: 'between',
      metric: 'dividend_yield',
      min: 0.02,
      max: 0.08,
    });
    expect(ruleFromText('sector in ["Energy"]')).toEqual({ kind: 'category', field: 'sector', op: 'in', values: ['Energy'] });
    expect(ruleFromText('roe in bottom 10%')).toEqual({ kind: 'rank', metric: 'roe', side: 'bottom', percent: 10, within: 'universe' });
    expect(ruleFromText('operating_income_ttm / total_assets > 0.1')).toEqual({
      kind: 'expr',
      expr: 'operating_income_ttm / total_assets > 0.1',
    });
    expect(ruleToText({ kind: 'rank', metric: 'roe', side: 'top', percent: 20, within: 'sector' })).toBe('roe in top 20% of sector');
  });

  it('rejects unknown metrics, bad expressions and too many rules in JSON', () => {
    const bad = screenFromJson({
      v: 1,
      rules: [
        { kind: 'value', metric: 'revnue', op: '<', value: 1 },
        { kind: 'expr', expr: '(price' },
      ],
    });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors.map((e) => e.message)).toEqual([
      'Rule 1: Unknown metric "revnue"',
      'Rule 2: Expected ")" but found the end of the rule at column 7',
    ]);
    const many = screenFromJson({ rules: Array.from({ length: 10_000 }, () => ({ kind: 'value', metric: 'price', op: '>', value: 1 })) });
    expect(many.ok).toBe(false);
    expect(ScreenSchema.safeParse({ v: 2 }).success).toBe(false);
  });

  it('reports query-string problems by parameter and keeps the good part', () => {
    const q = new URLSearchParams([
      ['r', 'pe_ttm < 15'],
      ['r', 'revnue > 1'],
      ['mcap_min', 'lots'],
      ['sort', 'nope:asc'],
      ['limit', '-3'],
    ]);
    const result = screenFromSearchParams(q);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.param)).toEqual(['mcap_min', 'r.1', 'sort', 'limit']);
    expect(result.errors[1].message).toBe('Rule 2: “revnue” is not a metric. Pick a metric from the suggestions.');
    expect(result.screen.rules).toEqual([{ kind: 'value', metric: 'pe_ttm', op: '<', value: 15 }]);
    const huge = screenFromSearchParams(new URLSearchParams(Array.from({ length: MAX_RULES + 1 }, () => ['r', 'price > 1'])));
    expect(huge.ok).toBe(false);
  });

  it('shows rule metrics, then ranking, then chosen columns', () => {
    const s = ScreenSchema.parse({
      rules: [ruleFromText('price > sma200'), ruleFromText('roe in top 20% of sector')],
      ranking: [{ metric: 'pe_ttm', direction: 'asc', weight: 1 }],
      columns: ['roe', 'market_cap'],
    });
    expect(displayColumns(s)).toEqual(['price', 'sma200', 'roe', 'pe_ttm', 'market_cap']);
  });
});

import { describe, expect, it } from 'vitest';
import { ExpressionError, MAX_EXPRESSION_DEPTH, parseRule, printRule } from '.';

function errorOf(source: string): { reason: string; column: number; message: string } {
  try {
    parseRule(source);
  } catch (e) {
    if (e instanceof ExpressionError) return { reason: e.reason, column: e.column, message: e.message };
    throw e;
  }
  throw new Error(`"${source}" parsed`);
}

describe('rule parser', () => {
  it('names an unknown metric and its column', () => {
    expect(errorOf('(revnue_ttm - cost_of_revenue_ttm) / total_assets > 0.1').message).toBe('Unknown metric "revnue_ttm" at column 2');
    expect(errorOf('pe_ttm < 15 + revnue').column).toBe(15);
  });

  it('points at a missing comparison, a dangling operator and an unclosed parenthesis', () => {
    expect(errorOf('pe_ttm + 1')).toMatchObject({
      column: 11,
      reason: 'Expected a comparison (< <= > >= = !=) but found the end of the rule',
    });
    expect(errorOf('pe_ttm < 15 *')).toMatchObject({ column: 14, reason: 'Expression ends too early' });
    expect(errorOf('(pe_ttm < 15')).toMatchObject({ column: 9, reason: 'Expected ")" but found "<"' });
    expect(errorOf('pe_ttm < 15 $')).toMatchObject({ column: 13, reason: 'Unexpected character "$"' });
    expect(errorOf('sector in ["Energy"')).toMatchObject({ column: 20 });
    expect(errorOf('roe in top 0% of sector').reason).toMatch(/above 0/);
    expect(errorOf('roe in top 20% of galaxy').reason).toBe('Expected universe, sector or industry but found "galaxy"');
    expect(errorOf('pe_ttm between 10 and 5').reason).toMatch(/lower bound/);
  });

  it('bounds nesting depth and length instead of overflowing', () => {
    const deep = `${'('.repeat(MAX_EXPRESSION_DEPTH + 5)}price${')'.repeat(MAX_EXPRESSION_DEPTH + 5)} > 1`;
    expect(errorOf(deep).reason).toMatch(/nested more than/);
    expect(errorOf(`price > ${'1+'.repeat(400)}1`).reason).toMatch(/longer than/);
  });

  it('respects precedence and prints canonically', () => {
    expect(printRule(parseRule('(revenue_ttm-cost_of_revenue_ttm)/total_assets>0.1'))).toBe(
      '(revenue_ttm - cost_of_revenue_ttm) / total_assets > 0.1',
    );
    expect(printRule(parseRule('price > 1.0 * sma200'))).toBe('price > 1 * sma200');
    expect(printRule(parseRule('price - (sma50 - sma200) > -2'))).toBe('price - (sma50 - sma200) > -2');
    expect(printRule(parseRule('abs(ret_1m) * -price >= max(1, 2)'))).toBe('abs(ret_1m) * -price >= max(1, 2)');
    expect(parseRule('roe in top 20% of sector')).toEqual({ t: 'rank', metric: 'roe', side: 'top', percent: 20, within: 'sector' });
    expect(parseRule('sector not in ["Energy", "Real \\"Estate\\""]')).toEqual({
      t: 'category',
      field: 'sector',
      negate: true,
      values: ['Energy', 'Real "Estate"'],
    });
  });
});

import { describe, expect, it } from 'vitest';
import { ruleFromText } from './model';
import { closestMetric, metricIdOf } from './metric-names';
import { compactNumber, parseNumberInput } from './number-input';
import { builderRedirect } from './builder';
import { screenFromSearchParams } from './url';

const value = (text: string) => {
  const r = parseNumberInput(text);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};

describe('typed numbers', () => {
  it('reads scale suffixes and percentages exactly', () => {
    expect(value('1B')).toBe(1_000_000_000);
    expect(value('300M')).toBe(300_000_000);
    expect(value('300m')).toBe(300_000_000);
    expect(value('1.1B')).toBe(1_100_000_000);
    expect(value('2.5k')).toBe(2500);
    expect(value('3T')).toBe(3e12);
    expect(value('4bn')).toBe(4e9);
    expect(value('5%')).toBe(0.05);
    expect(value('7%')).toBe(0.07);
    expect(value('-12.5%')).toBe(-0.125);
    expect(value(' $1,000,000 ')).toBe(1_000_000);
    expect(value('1.5 B')).toBe(1_500_000_000);
    expect(value('.5')).toBe(0.5);
    expect(value('1e3')).toBe(1000);
    expect(value('-0')).toBe(0);
    expect(Object.is(value('-0'), -0)).toBe(false);
  });

  it('refuses hostile and malformed input with a message', () => {
    for (const bad of [
      '',
      '   ',
      'abc',
      '1B%',
      '--1',
      '1..2',
      '1.2.3',
      '1,00',
      '0x10',
      'Infinity',
      'NaN',
      '1e999',
      '1 000',
      '5%%',
      '=1+1',
      '1B; DROP TABLE',
      '9'.repeat(41),
      '1\u0000',
      '١٢٣',
    ]) {
      const r = parseNumberInput(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.message.length).toBeLessThan(120);
    }
    const r = parseNumberInput('12 apples');
    expect(r).toEqual({ ok: false, message: '“12 apples” is not a number: write e.g. 15, 0.5, 300M, 1.2B or 5%' });
  });

  it('is used in rule text, the universe bounds and the builder', () => {
    expect(ruleFromText('market_cap > 1B')).toMatchObject({ kind: 'value', metric: 'market_cap', value: 1e9 });
    expect(ruleFromText('ret_12m > 5%')).toMatchObject({ kind: 'value', value: 0.05 });
    expect(ruleFromText('market_cap between 300M and 2B')).toMatchObject({ kind: 'between', min: 3e8, max: 2e9 });
    expect(ruleFromText('ret_12m in top 20% of sector')).toMatchObject({ kind: 'rank', percent: 20 });
    const parsed = screenFromSearchParams(new URLSearchParams('mcap_min=300M&mcap_max=1.5B'));
    expect(parsed.ok && parsed.screen.universe).toMatchObject({ marketCapMin: 3e8, marketCapMax: 1.5e9 });
    const bad = screenFromSearchParams(new URLSearchParams('mcap_min=lots'));
    expect(bad.ok ? [] : bad.errors.map((e) => e.message)).toEqual([
      'Market cap at least: “lots” is not a number: write e.g. 15, 0.5, 300M, 1.2B or 5%',
    ]);
    const to = builderRedirect('/screener', new URLSearchParams('add=value&add_metric=Market+cap&add_op=>&add_value=1B&size=100'));
    expect(to).toBe('/screener?r=market_cap+%3E+1000000000&size=100');
  });
});

describe('metric names', () => {
  it('takes ids and labels in any case', () => {
    expect(metricIdOf('market_cap')).toBe('market_cap');
    expect(metricIdOf('Market cap')).toBe('market_cap');
    expect(metricIdOf('  market   CAP ')).toBe('market_cap');
    expect(metricIdOf('nothing like it')).toBeNull();
    expect(closestMetric('revnue_ttm')?.id).toBe('revenue_ttm');
    expect(closestMetric('zzzzzzzzzzzzzzzz')).toBeNull();
  });

  it('explains a bad rule without parser columns', () => {
    const r = screenFromSearchParams(new URLSearchParams({ r: '(revnue_ttm - 1) > 2' }));
    expect(r.ok ? [] : r.errors.map((e) => e.message)).toEqual([
      'Rule 1: “revnue_ttm” is not a metric. Did you mean revenue_ttm (Revenue (TTM))?',
    ]);
    const r2 = screenFromSearchParams(new URLSearchParams({ r: 'pe_ttm < 15 *' }));
    expect(r2.ok ? [] : r2.errors.map((e) => e.message)).toEqual(['Rule 1: Expression ends too early, after “pe_ttm < 15 *”.']);
  });
});

describe('compact numbers', () => {
  it('are read back exactly', () => {
    expect(compactNumber(1e9)).toBe('1B');
    expect(compactNumber(1.5e6)).toBe('1.5M');
    expect(compactNumber(300e6)).toBe('300M');
    expect(compactNumber(1234567)).toBe('1234567');
    expect(compactNumber(42)).toBe('42');
    for (const n of [1e9, 1.5e6, 1234567, 42, 2.25e12, 999]) expect(parseNumberInput(compactNumber(n))).toEqual({ ok: true, value: n });
  });
});

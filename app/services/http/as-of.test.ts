import { describe, expect, it } from 'vitest';
import { AS_OF_MESSAGE, AsOfField, asOfOrThrow, asOfParam, asOfQuery, oldAsOfRedirect, parseAsOf } from './as-of';
import { DomainError } from './errors';

describe('the as_of parameter', () => {
  it('means the latest data when missing, empty or "latest", and a real date otherwise', () => {
    for (const latest of [null, undefined, '', '  ', 'latest']) expect(parseAsOf(latest)).toEqual({ ok: true, asOf: null });
    expect(parseAsOf(' 2024-02-29 ')).toEqual({ ok: true, asOf: '2024-02-29' });
    for (const bad of ['2023-02-29', '2024-13-45', '29/02/2024', 'yesterday', '1899-12-31', '2024-1-1', "2024-01-01' OR 1=1"])
      expect(parseAsOf(bad), bad).toEqual({ ok: false, message: AS_OF_MESSAGE });
  });

  it('is a 422 naming the field in the API', () => {
    expect(asOfOrThrow('2024-06-28')).toBe('2024-06-28');
    const e = (() => {
      try {
        asOfOrThrow('nope');
      } catch (x) {
        return x as DomainError;
      }
    })();
    expect(e).toBeInstanceOf(DomainError);
    expect([e?.status, e?.fields]).toEqual([422, { as_of: [AS_OF_MESSAGE] }]);
  });

  it('is the same rule as a zod field', () => {
    expect(AsOfField.parse(undefined)).toBeUndefined();
    expect(AsOfField.parse('')).toBeUndefined();
    expect(AsOfField.parse('2024-06-28')).toBe('2024-06-28');
    expect(AsOfField.safeParse('2024-02-30').error?.issues[0].message).toBe(AS_OF_MESSAGE);
  });

  it('reads the old name too, and old links are sent to the new name', () => {
    expect(asOfParam(new URLSearchParams('asof=2024-01-31'))).toBe('2024-01-31');
    expect(asOfParam(new URLSearchParams('as_of=2024-02-29&asof=2024-01-31'))).toBe('2024-02-29');
    expect(oldAsOfRedirect(new URL('http://x/screener?r=price+%3E+0&asof=2024-01-31&col=roe'))).toBe(
      '/screener?r=price+%3E+0&as_of=2024-01-31&col=roe',
    );
    expect(oldAsOfRedirect(new URL('http://x/screener?as_of=2024-02-29&asof=2024-01-31'))).toBe('/screener?as_of=2024-02-29');
    expect(oldAsOfRedirect(new URL('http://x/screener?asof='))).toBe('/screener?as_of=');
    expect(oldAsOfRedirect(new URL('http://x/screener?as_of=2024-01-31'))).toBeNull();
  });

  it('carries the date on to other tabs', () => {
    expect(asOfQuery(null)).toBe('');
    expect(asOfQuery('2024-06-28', { range: '1Y' })).toBe('?as_of=2024-06-28&range=1Y');
  });
});

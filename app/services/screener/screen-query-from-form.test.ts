import { describe, expect, it } from 'vitest';
import { builderRedirect, screenQueryFromForm } from './builder';

describe('the screen part of the builder form', () => {
  it('drops builder inputs, the run button and empty fields, and keeps the screen in order', () => {
    const q = screenQueryFromForm([
      ['r', 'price > 5'],
      ['add_metric', ''],
      ['add_op', '>'],
      ['mcap_min', ''],
      ['r', 'roe in top 20% of sector'],
      ['col', 'pe_ttm'],
      ['run', '1'],
    ]);
    expect(q.toString()).toBe('r=price+%3E+5&r=roe+in+top+20%25+of+sector&col=pe_ttm');
  });
  it('gives a query the loader serves without a redirect', () => {
    const q = screenQueryFromForm([
      ['r', 'price > 5'],
      ['add_op', '>'],
      ['add_value', ''],
    ]);
    expect(builderRedirect('/screener', q)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { builderRedirect } from './builder';

const go = (qs: string) => builderRedirect('/screener', new URLSearchParams(qs));
const rules = (url: string | null) => new URLSearchParams((url ?? '').split('?')[1] ?? '').getAll('r');

describe('no-JS screen builder', () => {
  it('leaves plain screen URLs alone', () => {
    expect(go('r=pe_ttm+<+15&as_of=2024-01-31')).toBeNull();
  });

  it('adds each rule kind from its fields', () => {
    expect(rules(go('add=value&add_metric=pe_ttm&add_op=<&add_value=15'))).toEqual(['pe_ttm < 15']);
    expect(rules(go('add=value&add_metric=pe_ttm&add_op=between&add_value=5&add_value2=15'))).toEqual(['pe_ttm between 5 and 15']);
    expect(rules(go('r=pe_ttm+<+15&add=compare&cmp_left=price&cmp_op=>&cmp_factor=1.05&cmp_right=sma200'))).toEqual([
      'pe_ttm < 15',
      'price > 1.05 * sma200',
    ]);
    expect(rules(go('add=rank&rank_metric=roe&rank_side=top&rank_pct=20&rank_within=sector'))).toEqual(['roe in top 20% of sector']);
    expect(rules(go('add=category&cat_field=sector&cat_op=not_in&cat_values=Energy,+Real+Estate'))).toEqual([
      'sector not in ["Energy", "Real Estate"]',
    ]);
    expect(rules(go('add=expr&expr_text=(revenue_ttm-cost_of_revenue_ttm)/total_assets>0.1'))).toEqual([
      '(revenue_ttm - cost_of_revenue_ttm) / total_assets > 0.1',
    ]);
  });

  it('removes a rule, a column and a ranking by index and goes back to page 1', () => {
    const url = go('r=pe_ttm+<+15&r=roe+>+0.1&r=price+>+5&col=roe&col=price&rank=roe:desc&page=3&remove=1&as_of=2024-01-31');
    expect(rules(url)).toEqual(['pe_ttm < 15', 'price > 5']);
    expect(url).not.toContain('page=');
    expect(url).toContain('as_of=2024-01-31');
    expect(new URLSearchParams(go('col=roe&col=price&remove_col=0')?.split('?')[1]).getAll('col')).toEqual(['price']);
    expect(new URLSearchParams(go('rank=roe:desc&rank=pe_ttm:asc&remove_rank=0')?.split('?')[1]).getAll('rank')).toEqual(['pe_ttm:asc']);
  });

  it('keeps a rule that does not parse as typed, so its error shows beside it', () => {
    expect(rules(go('add=value&add_metric=revnue&add_op=<&add_value=3'))).toEqual(['revnue < 3']);
  });

  it('adds columns once and ranking parts with weights', () => {
    const url = go('col=roe&add=column&add_col=roe');
    expect(new URLSearchParams(url?.split('?')[1]).getAll('col')).toEqual(['roe']);
    expect(
      new URLSearchParams(go('add=ranking&rank_add_metric=roe&rank_add_dir=desc&rank_add_weight=2')?.split('?')[1]).getAll('rank'),
    ).toEqual(['roe:desc:2']);
  });
});

import { describe, expect, it } from 'vitest';
import { screenPage } from './run';
import { setup } from './test-universe';

const rows = Array.from({ length: 120 }, (_, i) => ({
  permaticker: 1000 + i,
  ticker: `T${String(i).padStart(3, '0')}`,
  sector: i % 3 === 0 ? 'Energy' : 'Technology',
  values: { pe_ttm: i % 10 === 0 ? null : (i * 7) % 50, price: i },
}));
const u = setup(rows);

describe('sort and pages', () => {
  it('pages of 50 with a count and page count', () => {
    const p1 = screenPage(u.compile([]), u.prepared);
    expect([p1.count, p1.pageCount, p1.rows.length, p1.rows[0].ticker]).toEqual([120, 3, 50, 'T000']);
    const p3 = screenPage(u.compile([], { page: 3 }), u.prepared);
    expect([p3.page, p3.rows.length, p3.rows[0].ticker]).toEqual([3, 20, 'T100']);
    // A page past the end shows the last page.
    expect(screenPage(u.compile([], { page: 99 }), u.prepared).page).toBe(3);
  });

  it('sorts by a metric with n/a last in both directions, ties by ticker', () => {
    for (const dir of ['asc', 'desc'] as const) {
      const all = screenPage(u.compile([], { sort: { key: 'pe_ttm', dir } }), u.prepared, { pageSize: 'all' }).rows;
      const values = all.map((r) => r.values.pe_ttm);
      const present = values.filter((v): v is number => v !== null);
      expect(values.slice(present.length).every((v) => v === null)).toBe(true);
      expect(present).toEqual([...present].sort((a, b) => (dir === 'asc' ? a - b : b - a)));
      for (let i = 1; i < all.length; i++)
        if (all[i].values.pe_ttm === all[i - 1].values.pe_ttm) expect(all[i].ticker > all[i - 1].ticker).toBe(true);
    }
  });

  it('sorts by text columns', () => {
    const bySector = screenPage(u.compile([], { sort: { key: 'sector', dir: 'desc' } }), u.prepared, { pageSize: 'all' }).rows;
    expect(bySector[0].sector).toBe('Technology');
    expect(bySector.at(-1)?.sector).toBe('Energy');
    const byTicker = screenPage(u.compile([], { sort: { key: 'ticker', dir: 'desc' } }), u.prepared).rows;
    expect(byTicker[0].ticker).toBe('T119');
  });
});

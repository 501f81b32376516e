import { describe, expect, it } from 'vitest';
import { CONCEPT_IDS } from '../store/schema';
import { isTradingDay, tradingDays } from './calendar';
import { securityPriceRecords } from '../store/market-columns';
import { factRecordsOf } from './company';
import { createDemoUniverse, demoCompanies, type DemoCompany } from './universe';
import { validateDemoOptions } from './plan';

const universe = createDemoUniverse({ companies: 120, years: 5, seed: 42 });
const companies: DemoCompany[] = [...demoCompanies(universe)];
const records = new Map(companies.map((c) => [c, securityPriceRecords(c.prices)]));
const prices = (c: DemoCompany) => records.get(c) ?? securityPriceRecords(c.prices);
const factRecords = new Map(companies.map((c) => [c, factRecordsOf(c)]));
const facts = (c: DemoCompany) => factRecords.get(c) ?? factRecordsOf(c);

describe('demo universe: shape and labels', () => {
  it('ends on the last weekday on or before the end date, and never reads the clock', () => {
    expect(universe.plan.options.endDate).toBe('2026-10-30');
    expect(createDemoUniverse({ companies: 5, years: 1, seed: 1, endDate: '2024-06-16' }).plan.options.endDate).toBe('2024-06-14');
    expect(universe.plan.days.at(-1)).toBe('2026-10-30');
  });

  it('labels every security as fictional demo data', () => {
    for (const c of companies) {
      expect(c.security.isDemo).toBe(true);
      expect(c.security.exchange).toMatch(/^DEMO-(NYSE|NASDAQ)$/);
      expect(c.security.description).toMatch(/^DEMO DATA: a fictional/);
      expect(c.security.ticker).toMatch(/^[A-Z]{3,5}$/);
    }
    expect(new Set(companies.map((c) => c.security.name)).size).toBe(companies.length);
    expect(new Set(companies.map((c) => c.security.sector)).size).toBe(11);
  });

  it('trades on weekdays without holidays, with consistent OHLC and positive prices', () => {
    for (const c of companies.slice(0, 20)) {
      for (const p of prices(c)) {
        expect(isTradingDay(p.date)).toBe(true);
        expect(p.close).toBeGreaterThan(0);
        expect(p.high as number).toBeGreaterThanOrEqual(Math.max(p.open as number, p.close) - 1e-9);
        expect(p.low as number).toBeLessThanOrEqual(Math.min(p.open as number, p.close) + 1e-9);
      }
    }
    expect(tradingDays('2025-12-22', '2025-12-31')).toEqual([
      '2025-12-22',
      '2025-12-23',
      '2025-12-24',
      '2025-12-26',
      '2025-12-29',
      '2025-12-30',
      '2025-12-31',
    ]);
  });

  it('keeps the total-return index continuous across splits while the traded price jumps', () => {
    const splits = companies.flatMap((c) => c.actions.filter((a) => a.action === 'split').map((a) => ({ c, a })));
    expect(splits.length).toBeGreaterThan(0);
    for (const { c, a } of splits) {
      const i = prices(c).findIndex((p) => p.date === a.date);
      const before = prices(c)[i - 1];
      const at = prices(c)[i];
      const ratio = a.value as number;
      // As traded, the price falls by about the split ratio; adjusted and total return do not.
      expect((before.closeUnadj as number) / (at.closeUnadj as number)).toBeGreaterThan(ratio * 0.6);
      expect(Math.abs(at.close / before.close - 1)).toBeLessThan(0.5);
      expect(Math.abs((at.tri as number) / (before.tri as number) - at.close / before.close)).toBeLessThan(0.02);
    }
  });

  it('writes the total-return index as a vendor does: from the first close, to 4 decimals (4 digits below a dollar), never 0', () => {
    let belowDollar = 0;
    const wrong: string[] = [];
    for (const c of companies) {
      const tri = prices(c).map((p) => p.tri as number);
      expect(tri[0]).toBeCloseTo(prices(c)[0].close, 3);
      // Without a dividend that day, it moves with the adjusted close (both rounded).
      const exDays = new Set(c.actions.filter((a) => a.action === 'dividend').map((a) => a.date));
      tri.forEach((v, i) => {
        const written = v >= 1 ? Math.abs(v * 10_000 - Math.round(v * 10_000)) < 1e-6 : v > 0 && v === Number(v.toPrecision(4));
        if (v < 1) belowDollar++;
        const [p, q] = [prices(c)[i - 1], prices(c)[i]];
        const moves = i === 0 || exDays.has(q.date) || p.close < 1 || Math.abs(v / tri[i - 1] - q.close / p.close) < 0.01;
        if (!written || !moves) wrong.push(`${c.security.ticker} ${q.date}: ${v}`);
      });
    }
    expect(wrong).toEqual([]);
    expect(belowDollar).toBeGreaterThan(0);
  });

  it('delists by bankruptcy (price near zero first) and by acquisition (jump to a premium)', () => {
    const bankrupt = companies.filter((c) => c.actions.some((a) => a.action === 'bankruptcy'));
    const acquired = companies.filter((c) => c.actions.some((a) => a.action === 'acquisition'));
    expect(bankrupt.length).toBeGreaterThan(0);
    expect(acquired.length).toBeGreaterThan(0);
    for (const c of bankrupt) {
      expect(c.security.isDelisted).toBe(true);
      const last = prices(c).at(-1)!;
      const yearBefore = prices(c)[Math.max(0, prices(c).length - 260)];
      expect(last.close / yearBefore.close).toBeLessThan(0.2);
      expect(c.actions.at(-1)!.action).toBe('delisting');
    }
    for (const c of acquired) {
      const [before, last] = prices(c).slice(-2);
      expect(last.close / before.close).toBeGreaterThan(1.15);
      expect(c.security.lastPriceDate).toBe(last.date);
    }
  });

  it('files every concept quarterly, 25-90 days after the period, with SEC-style accession numbers', () => {
    for (const c of companies.slice(0, 30)) {
      if (facts(c).length === 0) continue;
      expect(new Set(facts(c).map((f) => f.concept))).toEqual(new Set(CONCEPT_IDS));
      for (const f of facts(c)) {
        expect(f.accession).toMatch(/^\d{10}-\d{2}-\d{6}$/);
        expect(f.form === '10-K' ? ['Q4', 'FY'] : ['Q1', 'Q2', 'Q3']).toContain(f.fiscalPeriod);
        const lag = (Date.parse(f.filed) - Date.parse(f.periodEnd)) / 86_400_000;
        if (c.security.firstPriceDate === universe.plan.days[0]) {
          expect(lag).toBeGreaterThanOrEqual(25);
          expect(lag).toBeLessThanOrEqual(90);
        }
      }
    }
  });

  it('reports fiscal years that equal the sum of their quarters', () => {
    let checked = 0;
    for (const c of companies.slice(0, 30)) {
      for (const fy of facts(c).filter((f) => f.fiscalPeriod === 'FY' && f.concept === 'revenue')) {
        const quarters = facts(c).filter((f) => f.concept === 'revenue' && f.fiscalYear === fy.fiscalYear && f.fiscalPeriod !== 'FY');
        expect(quarters).toHaveLength(4);
        expect(quarters.reduce((a, f) => a + f.value, 0)).toBe(fy.value);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('records ticker changes in the ticker history and as a corporate action', () => {
    const big = [...demoCompanies(createDemoUniverse({ companies: 400, years: 20, seed: 3 }))];
    const changed = big.filter((c) => c.tickerHistory.length > 1);
    expect(changed.length).toBeGreaterThan(0);
    for (const c of changed) {
      const change = c.actions.find((a) => a.action === 'ticker_change')!;
      expect(change.detail).toBe(c.security.ticker);
      expect(c.tickerHistory.at(-1)!.ticker).toBe(c.security.ticker);
      expect(c.tickerHistory.at(-1)!.startDate).toBe(change.date);
      expect(c.tickerHistory[0].endDate! < change.date).toBe(true);
    }
    // IPOs happen over time.
    expect(big.filter((c) => c.actions.some((a) => a.action === 'listing')).length).toBeGreaterThan(100);
  });
});

describe('demo universe: determinism and options', () => {
  it('gives identical data for one seed and different data for another', () => {
    const again = [...demoCompanies(createDemoUniverse({ companies: 120, years: 5, seed: 42 }))];
    const other = [...demoCompanies(createDemoUniverse({ companies: 120, years: 5, seed: 43 }))];
    expect(again).toEqual(companies);
    expect(other.map((c) => prices(c).at(-1)!.close)).not.toEqual(companies.map((c) => prices(c).at(-1)!.close));
  });

  it('refuses bad sizes with a clear message', () => {
    expect(() => validateDemoOptions({ companies: 0, years: 5, seed: 1 })).toThrow(/companies must be an integer from 1/);
    expect(() => validateDemoOptions({ companies: 10, years: 2.5, seed: 1 })).toThrow(/years must be an integer/);
    expect(() => validateDemoOptions({ companies: 10, years: 2, seed: Number.NaN })).toThrow(/seed must be an integer/);
    expect(() => validateDemoOptions({ companies: 10, years: 2, seed: 1, endDate: '30/10/2026' })).toThrow(/endDate/);
  });
});

import { describe, expect, it } from 'vitest';
import { buildStatement, type FactInput } from './financials';

// Statements from facts: Q4 derived from the year, TTM as four quarters, growth and margins,
// restatements and the as-of cut. Hand-computed numbers.

const f = (
  concept: string,
  value: number,
  end: string,
  fp: string,
  filed: string,
  accession: string,
  start: string | null = null,
): FactInput => ({
  concept,
  value,
  period_start: start,
  period_end: end,
  fiscal_year: Number(end.slice(0, 4)),
  fiscal_period: fp,
  form: fp === 'FY' ? '10-K' : '10-Q',
  filed,
  accession,
});

// Fiscal 2023 in quarters (Q4 only inside the 10-K), Q1 2024, and fiscal 2022 for growth.
const facts: FactInput[] = [
  f('revenue', 400, '2022-12-31', 'FY', '2023-02-15', '0000000001-23-000001', '2022-01-01'),
  f('net_income', 40, '2022-12-31', 'FY', '2023-02-15', '0000000001-23-000001', '2022-01-01'),
  f('revenue', 100, '2023-03-31', 'Q1', '2023-05-01', '0000000001-23-000002', '2023-01-01'),
  f('revenue', 110, '2023-06-30', 'Q2', '2023-08-01', '0000000001-23-000003', '2023-04-01'),
  f('revenue', 120, '2023-09-30', 'Q3', '2023-11-01', '0000000001-23-000004', '2023-07-01'),
  f('revenue', 480, '2023-12-31', 'FY', '2024-02-15', '0000000001-24-000001', '2023-01-01'),
  f('gross_profit', 240, '2023-12-31', 'FY', '2024-02-15', '0000000001-24-000001', '2023-01-01'),
  f('net_income', 60, '2023-12-31', 'FY', '2024-02-15', '0000000001-24-000001', '2023-01-01'),
  f('revenue', 130, '2024-03-31', 'Q1', '2024-05-01', '0000000001-24-000002', '2024-01-01'),
  // Q1 2023 restated in the 2024 Q1 filing: 100 → 104.
  f('revenue', 104, '2023-03-31', 'Q1', '2024-05-01', '0000000001-24-000002', '2023-01-01'),
  // A year-to-date six-month value tagged Q2 is not a quarter.
  f('revenue', 210, '2023-06-30', 'Q2', '2023-08-01', '0000000001-23-000003', '2023-01-01'),
  f('equity', 500, '2023-12-31', 'FY', '2024-02-15', '0000000001-24-000001'),
];

const opts = { cik: '1', isDemo: false } as const;
const line = (s: ReturnType<typeof buildStatement>, id: string) => s.lines.find((l) => l.id === id)!;

describe('buildStatement', () => {
  it('annual: fiscal years newest first, growth and margins', () => {
    const s = buildStatement(facts, { ...opts, statement: 'income', period: 'annual', asOf: null });
    expect(s.columns.map((c) => c.label)).toEqual(['FY 2023', 'FY 2022']);
    expect(line(s, 'revenue').cells.map((c) => c?.value)).toEqual([480, 400]);
    expect(s.growth.find((g) => g.id === 'revenue_growth')!.values[0]).toBeCloseTo(0.2, 12); // 480/400 − 1
    expect(s.growth.find((g) => g.id === 'net_income_growth')!.values[0]).toBeCloseTo(0.5, 12); // 60/40 − 1
    expect(s.margins.find((g) => g.id === 'gross_margin')!.values).toEqual([0.5, null]); // 240/480
    expect(s.margins.find((g) => g.id === 'net_margin')!.values[0]).toBe(0.125); // 60/480
    expect(line(s, 'revenue').cells[0]).toMatchObject({
      filed: '2024-02-15',
      accession: '0000000001-24-000001',
      url: 'https://www.sec.gov/Archives/edgar/data/1/000000000124000001/',
      derived: false,
    });
  });

  it('quarterly: Q4 = year − three quarters, restatements known later replace the first report', () => {
    const before = buildStatement(facts, { ...opts, statement: 'income', period: 'quarterly', asOf: '2024-03-01' });
    const rev = line(before, 'revenue');
    const byEnd = Object.fromEntries(before.columns.map((c, i) => [c.periodEnd, rev.cells[i]?.value ?? null]));
    expect(byEnd['2023-03-31']).toBe(100);
    expect(byEnd['2023-06-30']).toBe(110); // the six-month value is ignored
    expect(byEnd['2023-12-31']).toBe(150); // 480 − 100 − 110 − 120
    expect(rev.cells[before.columns.findIndex((c) => c.periodEnd === '2023-12-31')]).toMatchObject({ derived: true, filed: '2024-02-15' });
    expect(before.columns.some((c) => c.periodEnd === '2024-03-31')).toBe(false); // filed later
    const after = buildStatement(facts, { ...opts, statement: 'income', period: 'quarterly', asOf: '2024-06-01' });
    const rev2 = line(after, 'revenue');
    const byEnd2 = Object.fromEntries(after.columns.map((c, i) => [c.periodEnd, rev2.cells[i]?.value ?? null]));
    expect(byEnd2['2023-03-31']).toBe(104);
    expect(byEnd2['2023-12-31']).toBe(146); // 480 − 104 − 110 − 120: Q4 follows the restatement
    expect(byEnd2['2024-03-31']).toBe(130);
  });

  it('TTM: the sum of four consecutive quarters, growth against four quarters back', () => {
    const s = buildStatement(facts, { ...opts, statement: 'income', period: 'ttm', asOf: '2024-06-01' });
    const rev = line(s, 'revenue');
    expect(s.columns.map((c) => c.periodEnd)).toEqual(['2024-03-31', '2023-12-31']);
    expect(rev.cells.map((c) => c?.value)).toEqual([506, 480]); // 110+120+146+130 ; 104+110+120+146
    expect(rev.cells[0]).toMatchObject({ derived: true, filed: '2024-05-01' });
  });

  it('a demo company gets no SEC link; balance sheet instants by period end', () => {
    const s = buildStatement(facts, { cik: '1', isDemo: true, statement: 'balance', period: 'annual', asOf: null });
    expect(line(s, 'equity').cells[0]).toMatchObject({ value: 500, url: null });
  });
});

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportFileError, type FactRecord } from '../../store/records';
import { parseCompanyFacts } from './parse-companyfacts';

const fixture = path.resolve('tests/fixtures/sec/CIK0000999999.json');
const load = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const pick = (facts: FactRecord[], concept: string, fiscalYear: number | null, fiscalPeriod: string | null) =>
  facts.filter((f) => f.concept === concept && f.fiscalYear === fiscalYear && f.fiscalPeriod === fiscalPeriod);

describe('parseCompanyFacts on a small companyfacts document', () => {
  const { cik, entityName, facts, warnings } = parseCompanyFacts(load(fixture), fixture, 7);

  it('reads the entity and keeps the filing on every fact', () => {
    expect(cik).toBe('0000999999');
    expect(entityName).toBe('Example Fixture Corp');
    expect(warnings).toEqual([]);
    expect(facts.length).toBeGreaterThan(0);
    for (const f of facts) {
      expect(f.permaticker).toBe(7);
      expect(f.accession).toMatch(/^\d{10}-\d{2}-\d{6}$/);
      expect(f.form).toMatch(/^10-[KQ]/);
    }
  });

  it('falls back to an older revenue tag for years the newer one does not cover', () => {
    const fy2021 = pick(facts, 'revenue', 2021, 'FY');
    expect(fy2021.map((f) => [f.value, f.filed, f.sourceTag])).toEqual([[400e6, '2022-02-15', 'us-gaap:SalesRevenueNet']]);
  });

  it('turns a 6-month year-to-date figure into a quarter (Q2 = 6M − Q1)', () => {
    const q2 = pick(facts, 'revenue', 2022, 'Q2');
    expect(q2).toHaveLength(1);
    expect(q2[0]).toMatchObject({ value: 120e6, periodStart: '2022-04-01', periodEnd: '2022-06-30', filed: '2022-08-01', form: '10-Q' });
    expect(q2[0].sourceTag).toContain('(derived)');
  });

  it('derives Q4 as FY − 9M, dated and numbered like the 10-K, and again after the 10-K/A', () => {
    const q4 = pick(facts, 'revenue', 2022, 'Q4');
    expect(q4.map((f) => [f.value, f.form, f.filed, f.accession, f.periodStart, f.periodEnd])).toEqual([
      [125e6, '10-K', '2023-02-15', '0000999999-23-000005', '2022-10-01', '2022-12-31'],
      [115e6, '10-K/A', '2023-04-01', '0000999999-23-000009', '2022-10-01', '2022-12-31'],
    ]);
  });

  it('keeps a restatement as a new fact, ignores re-filings of the same value and non-10-K/10-Q forms', () => {
    const fy = pick(facts, 'revenue', 2022, 'FY');
    expect(fy.map((f) => [f.value, f.filed])).toEqual([
      [480e6, '2023-02-15'],
      [470e6, '2023-04-01'],
    ]);
    const q1 = pick(facts, 'revenue', 2022, 'Q1');
    expect(q1.map((f) => [f.value, f.filed])).toEqual([[110e6, '2022-05-01']]);
  });

  it('quarters of a year add up to the year as first filed', () => {
    const first = (p: string) => pick(facts, 'revenue', 2022, p)[0].value;
    expect(first('Q1') + first('Q2') + first('Q3') + first('Q4')).toBe(first('FY'));
  });

  it('does not derive quarters of per-share figures, and keeps their nine months to date (9M)', () => {
    const eps = facts.filter((f) => f.concept === 'eps_diluted');
    expect(eps.map((f) => f.fiscalPeriod).sort()).toEqual(['9M', 'FY', 'Q1', 'Q3']);
    const [nine] = eps.filter((f) => f.fiscalPeriod === '9M');
    expect(nine.sourceTag).not.toContain('(derived)');
    expect(nine.periodEnd).toBe(eps.find((f) => f.fiscalPeriod === 'Q3')!.periodEnd);
    expect(nine.periodStart! < eps.find((f) => f.fiscalPeriod === 'Q1')!.periodEnd).toBe(true);
    // Amounts keep no nine-month facts: their Q4 is derived in the importer.
    expect(facts.filter((f) => f.fiscalPeriod === '9M').every((f) => f.unit === 'USD/shares')).toBe(true);
  });

  it('stores balance-sheet values once per date and filing change, with the year end as FY', () => {
    const assets = facts.filter((f) => f.concept === 'total_assets');
    expect(assets.map((f) => [f.periodEnd, f.value, f.fiscalPeriod, f.periodStart])).toEqual([
      ['2021-12-31', 1000e6, 'FY', null],
      ['2022-03-31', 1050e6, 'Q1', null],
      ['2022-12-31', 1200e6, 'FY', null],
    ]);
    const shares = facts.filter((f) => f.concept === 'shares_outstanding');
    expect(shares.map((f) => [f.periodEnd, f.value, f.fiscalPeriod, f.sourceTag])).toEqual([
      ['2022-03-31', 49.9e6, 'Q1', 'us-gaap:CommonStockSharesOutstanding'],
      ['2022-04-20', 50e6, null, 'dei:EntityCommonStockSharesOutstanding'],
    ]);
  });
});

describe('parseCompanyFacts on broken documents', () => {
  const base = () => load(fixture);
  const revenueList = (doc: Record<string, unknown>) =>
    (doc.facts as Record<string, Record<string, { units: Record<string, Record<string, unknown>[]> }>>)['us-gaap']
      .RevenueFromContractWithCustomerExcludingAssessedTax.units.USD;

  it.each([
    ['a value that is not a number', (f: Record<string, unknown>) => (f.val = 'n/a'), /value "n\/a" is not a number/],
    ['an impossible date', (f: Record<string, unknown>) => (f.end = '2022-02-30'), /is not a date/],
    ['a period that ends before it starts', (f: Record<string, unknown>) => (f.start = '2023-01-01'), /starts 2023-01-01 after it ends/],
    ['a malformed accession', (f: Record<string, unknown>) => (f.accn = '12-34'), /accession "12-34" is malformed/],
  ])('rejects %s with the file and the place in it', (_, mutate, message) => {
    const doc = base();
    mutate(revenueList(doc)[1]);
    const run = () => parseCompanyFacts(doc, 'bad.json', 1);
    expect(run).toThrow(ImportFileError);
    expect(run).toThrow(message);
    expect(run).toThrow(/^bad\.json: facts\.us-gaap\.RevenueFromContractWithCustomerExcludingAssessedTax\.units\.USD\[1\]/);
  });

  it('rejects a document that is not companyfacts', () => {
    expect(() => parseCompanyFacts({ cik: 1, filings: {} }, 'x.json', 1)).toThrow(/not an SEC companyfacts document/);
    expect(() => parseCompanyFacts({ cik: 'abc', facts: {} }, 'x.json', 1)).toThrow(/CIK "abc"/);
  });
});

// Real EDGAR payloads (see ../shared/data/SOURCES.md).
const SEC = path.resolve('../shared/data/fundamentals/sec/companyfacts');
const hasSec = existsSync(path.join(SEC, 'CIK0000320193.json'));
if (!hasSec) console.warn(`Skipping real SEC companyfacts checks: ${SEC} is absent`);

describe.skipIf(!hasSec)('parseCompanyFacts on real EDGAR companyfacts', () => {
  const apple = () => {
    const doc = load(path.join(SEC, 'CIK0000320193.json'));
    return { doc, parsed: parseCompanyFacts(doc, 'AAPL', 1) };
  };

  it('AAPL net income FY2009: 5,704,000,000 as filed 2009-10-27, restated to 8,235,000,000 by the 10-K/A of 2010-01-25', () => {
    const { parsed } = apple();
    const fy2009 = pick(parsed.facts, 'net_income', 2009, 'FY');
    expect(fy2009.map((f) => [f.value, f.filed, f.form, f.accession])).toEqual([
      [5_704_000_000, '2009-10-27', '10-K', '0001193125-09-214859'],
      [8_235_000_000, '2010-01-25', '10-K/A', '0001193125-10-012091'],
    ]);
  });

  it('AAPL Q4 FY2009 net income: FY − 9M of each time, and 2,532 M once the restated nine months are filed (2010-07-21)', () => {
    const { parsed } = apple();
    const q4 = pick(parsed.facts, 'net_income', 2009, 'Q4');
    expect(q4.map((f) => [f.value, f.filed, f.form, f.sourceTag])).toEqual([
      [1_665_000_000, '2009-10-27', '10-K', 'us-gaap:NetIncomeLoss (derived)'],
      [4_196_000_000, '2010-01-25', '10-K/A', 'us-gaap:NetIncomeLoss (derived)'],
      [2_532_000_000, '2010-07-21', '10-Q', 'us-gaap:NetIncomeLoss (derived)'],
    ]);
  });

  it("AAPL annual revenue equals the value in each year's 10-K, and its quarters add up to it", () => {
    const { doc, parsed } = apple();
    const raw = (
      doc.facts as Record<
        string,
        Record<string, { units: { USD: { start?: string; end: string; val: number; form: string; accn: string }[] } }>
      >
    )['us-gaap'];
    let checked = 0;
    for (let year = 2011; year <= 2024; year++) {
      const [fy] = pick(parsed.facts, 'revenue', year, 'FY');
      expect(fy, `FY${year}`).toBeDefined();
      const tag = fy.sourceTag!.replace('us-gaap:', '');
      const reported = raw[tag].units.USD.find((f) => f.accn === fy.accession && f.start === fy.periodStart && f.end === fy.periodEnd);
      expect(reported?.form).toBe('10-K');
      expect(fy.value).toBe(reported?.val);
      const quarters = (['Q1', 'Q2', 'Q3', 'Q4'] as const).map((q) => pick(parsed.facts, 'revenue', year, q)[0]);
      expect(quarters.every(Boolean), `quarters of FY${year}`).toBe(true);
      // Q1–Q3 are taken as 10-Qs reported them, Q4 as the 10-K did or derived from it.
      expect(quarters.reduce((s, q) => s + q.value, 0)).toBe(fy.value);
      expect(quarters[3].filed).toBe(fy.filed);
      checked++;
    }
    expect(checked).toBe(14);
  });

  it('AAPL nine-month diluted EPS as each 10-Q filed it (what Q4 EPS = FY − 9M subtracts)', () => {
    const { parsed } = apple();
    // From the companyfacts JSON: EarningsPerShareDiluted 2008-09-28..2009-06-27 = 4.47 (10-Q
    // 2009-07-22), restated 6.30 (10-Q 2010-07-21); 2021-09-27..2022-06-25 = 4.82 (10-Q 2022-07-29).
    expect(pick(parsed.facts, 'eps_diluted', 2009, '9M').map((f) => [f.value, f.filed, f.periodStart, f.periodEnd])).toEqual([
      [4.47, '2009-07-22', '2008-09-28', '2009-06-27'],
      [6.3, '2010-07-21', '2008-09-28', '2009-06-27'],
    ]);
    expect(pick(parsed.facts, 'eps_diluted', 2022, '9M').map((f) => [f.value, f.filed, f.form])).toEqual([[4.82, '2022-07-29', '10-Q']]);
    expect(pick(parsed.facts, 'eps_basic', 2022, '9M')).toHaveLength(1);
  });

  it('GOOGL diluted EPS 2022Q1: 24.62 filed 2022-04-27, then 1.23 re-filed 2023-04-26 after the 20:1 split', () => {
    const parsed = parseCompanyFacts(load(path.join(SEC, 'CIK0001652044.json')), 'GOOGL', 2);
    const q1 = pick(parsed.facts, 'eps_diluted', 2022, 'Q1');
    expect(q1.map((f) => [f.value, f.filed])).toEqual([
      [24.62, '2022-04-27'],
      [1.23, '2023-04-26'],
    ]);
  });

  it('NVIDIA: fiscal years ending in late January are named after that year, Q4 derived from the 10-K', () => {
    const parsed = parseCompanyFacts(load(path.join(SEC, 'CIK0001045810.json')), 'NVDA', 3);
    const [fy] = pick(parsed.facts, 'revenue', 2024, 'FY');
    expect(fy).toMatchObject({ periodStart: '2023-01-30', periodEnd: '2024-01-28', value: 60_922_000_000, form: '10-K' });
    const [q4] = pick(parsed.facts, 'revenue', 2024, 'Q4');
    expect(q4).toMatchObject({ periodStart: '2023-10-30', periodEnd: '2024-01-28', filed: fy.filed, accession: fy.accession });
  });

  it('every real file parses; facts are filed after their period ends', () => {
    for (const file of ['CIK0001640147.json', 'CIK0001835632.json', 'CIK0001997711.json']) {
      const parsed = parseCompanyFacts(load(path.join(SEC, file)), file, 4);
      expect(parsed.facts.length, file).toBeGreaterThan(50);
      for (const f of parsed.facts) expect(f.filed >= f.periodEnd, `${file} ${f.concept} ${f.periodEnd}`).toBe(true);
    }
  });

  it('maps what it can of an IFRS filer and says so', () => {
    const parsed = parseCompanyFacts(load(path.join(SEC, 'CIK0001997711.json')), 'LPA', 5);
    expect(parsed.warnings.join()).toMatch(/IFRS filer/);
    const revenue = parsed.facts.filter((f) => f.concept === 'revenue' && f.fiscalPeriod === 'FY');
    expect(revenue.find((f) => f.fiscalYear === 2023)).toMatchObject({ value: 39_436_343, form: '20-F', sourceTag: 'ifrs-full:Revenue' });
  });
});

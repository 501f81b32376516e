import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDays, fromEpochDay, toEpochDay, type IsoDate } from '../dates';
import { parseCompanyFacts } from '../market/importers/sec/parse-companyfacts';
import type { FactRecord } from '../market/store/records';
import { SecurityEvaluator } from '../metrics/engine/evaluate';
import { buildFactColumns } from '../metrics/engine/facts';
import { metricIndex, N_METRICS } from '../metrics/engine/metric-index';
import { inferSplits, factObservations } from '../metrics/engine/share-basis';
import type { SecurityInput } from '../metrics/engine/types';
import { jsonWithoutFloatNoise } from '../http/numbers';
import { buildStatement, type FactInput, type Statement } from './financials';
import { statementTable } from './table-exports';

// The statements and the metrics engine on real EDGAR companyfacts (../shared/data): one
// point-in-time derivation of quarters and TTMs, per-share values on one share basis across
// splits, honest fourth quarters around restatements.

const SEC = path.resolve('../shared/data/fundamentals/sec/companyfacts');
const COMPANIES = { AAPL: 'CIK0000320193', NVDA: 'CIK0001045810', GOOGL: 'CIK0001652044' } as const;
const hasSec = Object.values(COMPANIES).every((cik) => existsSync(path.join(SEC, `${cik}.json`)));
if (!hasSec) console.warn(`Skipping the statements-vs-metrics checks on real filings: ${SEC} is absent`);

const records = new Map<string, FactRecord[]>();
function factsOf(ticker: keyof typeof COMPANIES): FactRecord[] {
  let r = records.get(ticker);
  if (!r) {
    const cik = COMPANIES[ticker];
    r = parseCompanyFacts(JSON.parse(readFileSync(path.join(SEC, `${cik}.json`), 'utf8')), cik, 1).facts;
    records.set(ticker, r);
  }
  return r;
}
const inputs = (ticker: keyof typeof COMPANIES): FactInput[] =>
  factsOf(ticker).map((f) => ({
    concept: f.concept,
    value: f.value,
    period_start: f.periodStart,
    period_end: f.periodEnd,
    fiscal_year: f.fiscalYear,
    fiscal_period: f.fiscalPeriod,
    form: f.form,
    filed: f.filed,
    accession: f.accession,
    source_tag: f.sourceTag,
  }));

const statement = (
  ticker: keyof typeof COMPANIES,
  period: 'annual' | 'quarterly' | 'ttm',
  asOf: IsoDate | null,
  kind: 'income' | 'cash_flow' = 'income',
) => buildStatement(inputs(ticker), { statement: kind, period, asOf, cik: '1', isDemo: false });
const cell = (s: Statement, line: string, periodEnd: IsoDate) => {
  const i = s.columns.findIndex((c) => c.periodEnd === periodEnd);
  return i < 0 ? null : (s.lines.find((l) => l.id === line)!.cells[i] ?? null);
};

describe.skipIf(!hasSec)('statements on real EDGAR filings', () => {
  it('Apple Q4 FY2009 net income as of 2010-08-01 is the restated year minus the restated nine months: 2,532 M, derived', () => {
    expect(cell(statement('AAPL', 'quarterly', '2010-08-01'), 'net_income', '2009-09-26')).toMatchObject({
      value: 2_532_000_000,
      derived: true,
      reported: null,
      filed: '2010-07-21',
    });
    // Before the restated nine months were filed, the restated year less the nine months then known.
    expect(cell(statement('AAPL', 'quarterly', '2010-05-01'), 'net_income', '2009-09-26')?.value).toBe(4_196_000_000);
  });

  it('Apple Q4 FY2022 revenue (FY − 9M, no 3-month fact filed) says it is derived', () => {
    expect(cell(statement('AAPL', 'quarterly', null), 'revenue', '2022-09-24')).toMatchObject({ value: 90_146_000_000, derived: true });
  });

  it('the filings imply the splits: Apple 7:1 (2014) and 4:1 (2020), NVIDIA 4:1 (2021) and 10:1 (2024), Alphabet 20:1 (2022)', () => {
    const splits = (t: keyof typeof COMPANIES) =>
      inferSplits(factObservations(buildFactColumns(factsOf(t)))).map((s) => [fromEpochDay(s.day).slice(0, 4), s.ratio]);
    expect(splits('AAPL')).toEqual([
      ['2014', 7],
      ['2020', 4],
    ]);
    expect(splits('NVDA')).toEqual([
      ['2021', 4],
      ['2024', 10],
    ]);
    expect(splits('GOOGL')).toEqual([['2022', 20]]);
  });

  it('NVIDIA Q4 FY2024 and FY2023 diluted EPS are positive and on the basis of the quarters beside them', () => {
    const s = statement('NVDA', 'quarterly', null);
    const q4 = cell(s, 'eps_diluted', '2024-01-28')!;
    // Hand-computed from the companyfacts JSON: FY2024 diluted EPS 1.19 (10-K filed 2025-02-26, after
    // the 10:1 split) minus the nine months to 2023-10-29, 0.70 (10-Q filed 2024-11-20), both post-split.
    expect(q4).toMatchObject({ value: 0.49, derived: true, derivation: 'FY − 9M', decimals: 2, filed: '2025-02-26' });
    // FY2023 0.17 (filed 2025-02-26) − nine months 1.17 filed before the split (2023-11-21), 0.117
    // on today's basis: 0.053, given to the coarser precision of the two (cents): 0.05.
    expect(cell(s, 'eps_diluted', '2023-01-29')).toMatchObject({ value: 0.05, derivation: 'FY − 9M', decimals: 2 });
    // FY2021 1.73 − nine months 1.15 (both after the 2021 4:1 split) = 0.58, ÷ 10 for 2024: 0.058.
    expect(cell(s, 'eps_diluted', '2021-01-31')).toMatchObject({ value: 0.058, derivation: 'FY − 9M', decimals: 3 });
    // Q1 FY2024 was last filed before the 2024 split (0.82): adjusted, the as-filed value beside it.
    expect(cell(s, 'eps_diluted', '2023-04-30')).toMatchObject({ reported: 0.82, derived: false });
    expect(cell(s, 'eps_diluted', '2023-04-30')!.value).toBeCloseTo(0.082, 12);
  });

  it('Alphabet Q4 2021, Q4 2020 and the TTM at 2022-03-31 diluted EPS are positive (20:1 split of 2022 applied throughout)', () => {
    const q = statement('GOOGL', 'quarterly', null);
    // Hand-computed from the companyfacts JSON. Q4 2021: FY 5.61 (10-K 2023-02-03, post-split) − nine
    // months 4.08 (10-Q 2022-10-26, post-split) = 1.53.
    expect(cell(q, 'eps_diluted', '2021-12-31')).toMatchObject({ value: 1.53, derivation: 'FY − 9M', decimals: 2 });
    // Q4 2020: FY 2.93 (post-split) − nine months 36.38 / 20 = 1.819 (pre-split 10-Q, four places) = 1.111 → 1.11.
    expect(cell(q, 'eps_diluted', '2020-12-31')).toMatchObject({ value: 1.11, derivation: 'FY − 9M', decimals: 2 });
    // TTM at 2022-03-31: 1.23 + 1.53 + 1.40 + 1.36 (each as last filed, post-split).
    const ttm = cell(statement('GOOGL', 'ttm', null), 'eps_diluted', '2022-03-31')!;
    expect(ttm).toMatchObject({ value: 5.52, derivation: 'sum of 4 quarters', decimals: 2 });
    // As of 2022-03-31, before the split: Q4 2021 = 112.20 − 81.53 = 30.67, and the TTM
    // 30.67 + 27.99 + 27.26 + 26.29 = 112.21 (the 10-K's own 112.20 is the year's EPS, not a sum).
    const before = statement('GOOGL', 'quarterly', '2022-03-31');
    expect(cell(before, 'eps_diluted', '2021-12-31')).toMatchObject({ value: 30.67, derivation: 'FY − 9M' });
    expect(cell(statement('GOOGL', 'ttm', '2022-03-31'), 'eps_diluted', '2021-12-31')!.value).toBe(112.21);
  });

  it('Apple FY2012 annual EPS is consistent with its quarters (both on the latest share basis)', () => {
    const fy = cell(statement('AAPL', 'annual', null), 'eps_diluted', '2012-09-29')!;
    // 6.31 (filed 2014, after the 7:1 split) ÷ 4 for 2020: known to about ±0.001, so three places.
    expect(fy).toMatchObject({ reported: 6.31, value: 1.578, decimals: 3 });
    const q = statement('AAPL', 'quarterly', null);
    const quarters = ['2011-12-31', '2012-03-31', '2012-06-30', '2012-09-29'].map((e) => cell(q, 'eps_diluted', e)!.value);
    const sum = quarters.reduce((a, b) => a + b, 0);
    expect(Math.abs(sum / fy.value - 1)).toBeLessThan(0.01);
  });

  it('Q4 EPS is the year minus the nine months as filed, both as known on the day (Apple, hand-computed)', () => {
    // FY2022: 6.11 (10-K 2022-10-28) − 4.82 (nine months, 10-Q 2022-07-29) = 1.29, Apple's reported Q4.
    expect(cell(statement('AAPL', 'quarterly', null), 'eps_diluted', '2022-09-24')).toMatchObject({
      value: 1.29,
      derived: true,
      derivation: 'FY − 9M',
      filed: '2022-10-28',
    });
    // FY2009 as of 2010-08-01: the restated year 9.08 (10-K/A 2010-01-25) minus the restated nine
    // months 6.30 (10-Q 2010-07-21) = 2.78; before 2010-07-21 the nine months were 4.47 (4.61).
    expect(cell(statement('AAPL', 'quarterly', '2010-08-01'), 'eps_diluted', '2009-09-26')).toMatchObject({
      value: 2.78,
      derivation: 'FY − 9M',
      filed: '2010-07-21',
    });
    expect(cell(statement('AAPL', 'quarterly', '2010-07-01'), 'eps_diluted', '2009-09-26')).toMatchObject({
      value: 4.61,
      filed: '2010-01-25',
    });
  });

  it('without a nine-month figure Q4 EPS is the year minus three quarters, and says so', () => {
    const withoutNine = inputs('AAPL').filter((f) => f.fiscal_period !== '9M');
    const s = buildStatement(withoutNine, { statement: 'income', period: 'quarterly', asOf: null, cik: '1', isDemo: false });
    const i = s.columns.findIndex((c) => c.periodEnd === '2022-09-24');
    expect(s.lines.find((l) => l.id === 'eps_diluted')!.cells[i]).toMatchObject({ derivation: 'FY − Q1 − Q2 − Q3', derived: true });
  });

  it('the CSV says how each derived value was made, beside the value as filed', () => {
    const table = statementTable(statement('NVDA', 'quarterly', null));
    expect(table.header.slice(-3)).toEqual(['kind', 'value_as_filed', 'derivation']);
    const row = (line: string, end: string) => table.rows.find((r) => r[0] === line && r[2] === end)!;
    expect(row('eps_diluted', '2024-01-28')[3]).toBe(0.49);
    expect(row('eps_diluted', '2024-01-28').slice(-3)).toEqual(['derived', null, 'FY − 9M']);
    expect(row('eps_diluted', '2023-04-30').slice(-3)).toEqual(['filed', 0.82, null]);
  });

  it('every value is given to its reported precision: amounts in millions (thousands), EPS in cents or finer', () => {
    for (const t of Object.keys(COMPANIES) as (keyof typeof COMPANIES)[]) {
      for (const period of ['annual', 'quarterly', 'ttm'] as const) {
        const s = statement(t, period, null);
        for (const line of s.lines)
          for (const c of line.cells) {
            if (!c) continue;
            expect(Number(c.value.toFixed(Math.max(0, c.decimals))), `${t} ${line.id}`).toBe(c.value);
            if (c.decimals < 0) expect(Math.abs(c.value) % 10 ** -c.decimals, `${t} ${line.id}`).toBe(0);
            // Apple and Alphabet state amounts in millions; NVIDIA stated them in thousands until 2010s.
            if (line.unit === 'USD') expect(c.decimals, `${t} ${line.id}`).toBe(t === 'NVDA' ? -3 : -6);
            if (line.unit === 'USD/shares') expect(c.decimals).toBeGreaterThanOrEqual(2);
          }
      }
    }
  });

  it('serves no float noise: every statement of every company as the JSON API writes it', () => {
    let numbers = 0;
    for (const ticker of Object.keys(COMPANIES) as (keyof typeof COMPANIES)[])
      for (const period of ['annual', 'quarterly', 'ttm'] as const) {
        const json = JSON.stringify(statement(ticker, period, null), jsonWithoutFloatNoise);
        expect(json, `${ticker} ${period}`).not.toMatch(/\.\d*(?:0{6,}|9{6,})\d/);
        numbers += (json.match(/"value":/g) ?? []).length;
      }
    expect(numbers).toBeGreaterThan(1000);
  });

  it.each(Object.keys(COMPANIES) as (keyof typeof COMPANIES)[])(
    "%s: the statement's TTM equals the metric's TTM on the day after every filing",
    (ticker) => {
      const facts = factsOf(ticker);
      const days = [...new Set(facts.map((f) => f.filed))].sort();
      const first = toEpochDay(days[0]);
      const last = toEpochDay(days[days.length - 1]) + 1;
      const dates = Int32Array.from({ length: last - first + 1 }, (_, i) => first + i);
      const ones = new Float64Array(dates.length).fill(1);
      const input: SecurityInput = {
        permaticker: 1,
        dates,
        close: ones,
        closeUnadj: new Float64Array(dates.length).fill(Number.NaN),
        volume: ones,
        tri: new Float64Array(dates.length).fill(Number.NaN),
        dividends: { exDate: new Int32Array(0), amount: new Float64Array(0) },
        facts: buildFactColumns(facts),
        delisted: false,
      };
      const evaluator = new SecurityEvaluator(input);
      const row = new Float64Array(N_METRICS);
      const lines = ['revenue', 'net_income', 'operating_cash_flow', 'eps_diluted'] as const;
      let compared = 0;
      for (const filed of days) {
        const asOf = addDays(filed, 1);
        expect(evaluator.evaluateInto(toEpochDay(asOf), row, null)).toBe(true);
        const statements = { income: statement(ticker, 'ttm', asOf), cash_flow: statement(ticker, 'ttm', asOf, 'cash_flow') };
        for (const line of lines) {
          const s = statements[line === 'operating_cash_flow' ? 'cash_flow' : 'income'];
          const metric = row[metricIndex(`${line}_ttm`)];
          const shown = s.columns.length ? cell(s, line, s.columns[0].periodEnd) : null;
          if (Number.isNaN(metric)) continue;
          expect(shown, `${ticker} ${line} TTM as of ${asOf}`).not.toBeNull();
          // The statement gives EPS to its reported precision (cents, more digits after a split
          // divides it), each quarter and then the sum; the metric keeps every digit: equal within
          // the four quarters' roundings and the sum's (2.5 units of the statement's last place).
          if (line === 'eps_diluted')
            expect(Math.abs(shown!.value - metric), `${ticker} EPS TTM as of ${asOf} ${s.columns[0].periodEnd}`).toBeLessThanOrEqual(
              2.5 * 10 ** -shown!.decimals + 1e-12,
            );
          else expect(shown!.value, `${ticker} ${line} TTM as of ${asOf}`).toBe(metric);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(100);
    },
  );
});

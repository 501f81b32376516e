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
    expect(q4.derived).toBe(true);
    expect(q4.value).toBeCloseTo(0.488, 3); // 4.93 before the 10:1 split of 2024 (FY 1.19 − 0.082 − 0.25 − 0.37)
    expect(cell(s, 'eps_diluted', '2023-01-29')!.value).toBeGreaterThan(0);
    // Q1 FY2024 was last filed before the 2024 split (0.82): adjusted, the as-filed value beside it.
    expect(cell(s, 'eps_diluted', '2023-04-30')).toMatchObject({ reported: 0.82, derived: false });
    expect(cell(s, 'eps_diluted', '2023-04-30')!.value).toBeCloseTo(0.082, 12);
  });

  it('Alphabet Q4 2021, Q4 2020 and the TTM at 2022-03-31 diluted EPS are positive (20:1 split of 2022 applied throughout)', () => {
    const q = statement('GOOGL', 'quarterly', null);
    expect(cell(q, 'eps_diluted', '2021-12-31')!.value).toBeCloseTo(1.5355, 4); // 30.69 / 20 before rounding of the parts
    expect(cell(q, 'eps_diluted', '2020-12-31')!.value).toBeCloseTo(1.11, 4);
    const ttm = cell(statement('GOOGL', 'ttm', null), 'eps_diluted', '2022-03-31')!;
    expect(ttm.value).toBeCloseTo(5.5255, 4);
    // As of 2022-03-31, before the split: the same quarters on the basis of that day.
    expect(cell(statement('GOOGL', 'ttm', '2022-03-31'), 'eps_diluted', '2021-12-31')!.value).toBeCloseTo(112.2, 6);
  });

  it('Apple FY2012 annual EPS is consistent with its quarters (both on the latest share basis)', () => {
    const fy = cell(statement('AAPL', 'annual', null), 'eps_diluted', '2012-09-29')!;
    expect(fy).toMatchObject({ reported: 6.31 });
    expect(fy.value).toBeCloseTo(6.31 / 4, 12);
    const q = statement('AAPL', 'quarterly', null);
    const quarters = ['2011-12-31', '2012-03-31', '2012-06-30', '2012-09-29'].map((e) => cell(q, 'eps_diluted', e)!.value);
    const sum = quarters.reduce((a, b) => a + b, 0);
    expect(Math.abs(sum / fy.value - 1)).toBeLessThan(0.01);
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
          if (line === 'eps_diluted')
            expect(shown!.value, `${ticker} EPS TTM as of ${asOf} ${s.columns[0].periodEnd}`).toBeCloseTo(metric, 9);
          else expect(shown!.value, `${ticker} ${line} TTM as of ${asOf}`).toBe(metric);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(100);
    },
  );
});

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ImportFileError } from '../../store/records';
import { adjustSeries } from './adjust';
import { parsePriceCsv, tickerFromFileName } from './parse-ohlcv';

const FIXTURES = path.resolve('tests/fixtures/prices');
const parseFixture = (name: string, skipBadRows = false) => {
  const file = path.join(FIXTURES, name);
  return parsePriceCsv(readFileSync(file, 'utf8'), file, { ticker: tickerFromFileName(path.basename(name)), skipBadRows });
};

describe('price layouts', () => {
  it.each([
    ['exmp.us.csv', 'stooq', ['EXMP']],
    ['stooq-bulk.txt', 'stooq-bulk', ['EXMP']],
    ['YHOO.csv', 'yahoo', ['YHOO']],
    ['TIIN.csv', 'tiingo', ['TIIN']],
    ['ZIPL.csv', 'zipline-csvdir', ['ZIPL']],
    ['PLAIN.csv', 'plain', ['PLAIN']],
    ['panel.csv', 'panel', ['AAA', 'BBB']],
  ])('%s is read as %s', (name, layout, tickers) => {
    const parsed = parseFixture(name);
    expect(parsed.layout.name).toBe(layout);
    expect([...parsed.series.keys()].sort()).toEqual(tickers);
  });

  it('names the ticker after the file, without the market suffix', () => {
    expect(tickerFromFileName('aapl.us.txt')).toBe('AAPL');
    expect(tickerFromFileName('BRK.B.csv.gz')).toBe('BRK.B');
  });

  it('sorts rows by date (some sources list newest first)', () => {
    const bars = parseFixture('PLAIN.csv').series.get('PLAIN')!;
    expect(bars.map((b) => b.date)).toEqual(['2024-01-02', '2024-01-03']);
  });

  it('keeps rows with empty open/high/low, skips rows without a close, and says so', () => {
    const parsed = parseFixture('panel.csv');
    expect(parsed.series.get('AAA')![1]).toMatchObject({ date: '2024-01-03', open: null, high: null, low: null, close: 10.8 });
    expect(parsed.series.get('BBB')!.map((b) => b.date)).toEqual(['2024-01-02', '2024-01-03']);
    expect(parsed.warnings).toEqual([expect.stringMatching(/panel\.csv:6: BBB 2024-01-04: no close, row skipped/)]);
  });
});

describe('adjustment to the store basis', () => {
  // Same security in two layouts: Tiingo (as traded) and zipline csvdir (split-adjusted). A 1.00
  // dividend (0.50 after the later 2:1 split) goes ex on 01-03, the split on 01-04.
  const expectedClose = [50, 51, 51.5, 52];
  const expectedTri = [50, 50 * (51.5 / 50), 50 * (51.5 / 50) * (51.5 / 51), 50 * (51.5 / 50) * (51.5 / 51) * (52 / 51.5)];

  it.each(['TIIN.csv', 'ZIPL.csv'])('%s: split-adjusted closes, traded closes, total-return index and actions', (name) => {
    const parsed = parseFixture(name);
    const { prices, actions } = adjustSeries([...parsed.series.values()][0], parsed.layout, 9, 'prices');
    prices.forEach((p, i) => {
      expect(p.close).toBeCloseTo(expectedClose[i], 10);
      expect(p.tri).toBeCloseTo(expectedTri[i], 10);
    });
    expect(prices.map((p) => p.closeUnadj)).toEqual([100, 102, 51.5, 52]);
    expect(prices[0].volume).toBe(2000);
    expect(actions).toEqual([
      { permaticker: 9, date: '2024-01-03', action: 'dividend', value: 1, detail: null, source: 'prices' },
      { permaticker: 9, date: '2024-01-04', action: 'split', value: 2, detail: null, source: 'prices' },
    ]);
  });

  it('uses Yahoo’s adjusted close as the total-return index and knows no traded price', () => {
    const parsed = parseFixture('YHOO.csv');
    const { prices } = adjustSeries(parsed.series.get('YHOO')!, parsed.layout, 1, 'prices');
    expect(prices.map((p) => [p.close, p.tri, p.closeUnadj])).toEqual([
      [10.2, 9.9, null],
      [10.8, 10.48, null],
    ]);
  });
});

describe('hostile price files', () => {
  it.each([
    ['WRONGCOLS.csv', 1, /missing open, high, low, close/],
    ['BROKEN.csv', 3, /broken CSV/],
    ['HIGHLOW.csv', 3, /high 10 is below low 10\.6/],
    ['NEGATIVE.csv', 3, /close -10\.8 is not a positive price/],
    ['BADDATE.csv', 3, /date "2024-13-03" is not a date/],
  ])('%s is rejected at line %i', (name, line, message) => {
    let error: unknown;
    try {
      parseFixture(`hostile/${name}`);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).line).toBe(line);
    expect((error as ImportFileError).file).toContain(name);
    expect((error as ImportFileError).message).toMatch(message);
  });

  it('can skip impossible rows instead, with a warning', () => {
    const parsed = parseFixture('hostile/HIGHLOW.csv', true);
    expect(parsed.series.get('HIGHLOW')).toHaveLength(1);
    expect(parsed.warnings[0]).toMatch(/HIGHLOW\.csv:3: .*high 10 is below low 10\.6, row skipped/);
  });

  it('rejects a duplicated day', () => {
    const text = 'date,open,high,low,close,volume\n2024-01-02,1,1,1,1,1\n2024-01-02,1,1,1,1,1\n';
    expect(() => parsePriceCsv(text, 'dup.csv', { ticker: 'DUP' })).toThrow(/dup\.csv:3: DUP 2024-01-02 appears twice/);
  });
});

// Real files (see ../shared/data/SOURCES.md).
const DATA = path.resolve('../shared/data');
const zipline = path.join(DATA, 'corporate_actions/zipline_csvdir_daily_2012-2014/AAPL.csv');
const quandl = path.join(DATA, 'corporate_actions/quandl_wiki_prices_sample_2014.csv');
const extracted = path.join(DATA, 'corporate_actions/corporate_actions_extracted.csv');
const panel = path.join(DATA, 'prices/sp500_stocks_daily_2013-2018_sample.csv');
const fullPanel = path.join(DATA, 'prices/sp500_stocks_daily_2013-2018.csv.gz');
const hasData = [zipline, quandl, extracted, panel].every((f) => existsSync(f));
if (!hasData) console.warn(`Skipping real price-file checks: ${DATA} is absent`);

describe.skipIf(!hasData)('real price files', () => {
  const parseReal = (file: string, ticker: string | null = null, skipBadRows = false) => {
    const buffer = readFileSync(file);
    const text = file.endsWith('.gz') ? gunzipSync(buffer).toString('utf8') : buffer.toString('utf8');
    return parsePriceCsv(text, file, { ticker: ticker ?? tickerFromFileName(path.basename(file)), skipBadRows });
  };

  it("AAPL's 7:1 split of 2014-06-09: adjusted closes are continuous, traded closes jump (zipline csvdir)", () => {
    const parsed = parseReal(zipline);
    const { prices, actions } = adjustSeries(parsed.series.get('AAPL')!, parsed.layout, 1, 'prices');
    const i = prices.findIndex((p) => p.date === '2014-06-09');
    expect(Math.abs(prices[i].close / prices[i - 1].close - 1)).toBeLessThan(0.05);
    expect(Math.abs(prices[i].tri! / prices[i - 1].tri! - 1)).toBeLessThan(0.05);
    expect(prices[i - 1].closeUnadj! / prices[i].closeUnadj!).toBeGreaterThan(6);
    expect(prices[i - 1].closeUnadj).toBeCloseTo(645.57, 1);
    expect(actions.filter((a) => a.action === 'split')).toEqual([expect.objectContaining({ date: '2014-06-09', value: 7 })]);
  });

  it('Quandl WIKI (as traded) and zipline (split-adjusted) give the same adjusted closes and dividends', () => {
    const z = parseReal(zipline);
    const q = parseReal(quandl);
    const zs = adjustSeries(z.series.get('AAPL')!, z.layout, 1, 'prices');
    const qs = adjustSeries(q.series.get('AAPL')!, q.layout, 1, 'prices');
    const zBy = new Map(zs.prices.map((p) => [p.date, p.close]));
    for (const p of qs.prices) expect(p.close / zBy.get(p.date)! - 1, p.date).toBeLessThan(1e-4);
    const dividends = (a: typeof qs.actions) =>
      a.filter((x) => x.action === 'dividend' && x.date >= '2014-01-01').map((x) => [x.date, Math.round(x.value! * 100) / 100]);
    expect(dividends(zs.actions)).toEqual(dividends(qs.actions));
  });

  it('dividends and splits match corporate_actions_extracted.csv', () => {
    const rows = readFileSync(extracted, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    for (const [source, file] of [
      ['zipline_csvdir', zipline],
      ['quandl_wiki', quandl],
    ] as const) {
      const parsed = parseReal(file);
      for (const [ticker, bars] of parsed.series) {
        const { actions, prices } = adjustSeries(bars, parsed.layout, 1, 'prices');
        const expected = rows.filter((r) => r[0] === source && r[1] === ticker);
        expect(actions.length, `${source} ${ticker}`).toBe(expected.length);
        for (const e of expected) {
          const got = actions.find((a) => a.date === e[2] && a.action === e[3]);
          expect(got, `${source} ${ticker} ${e[2]} ${e[3]}`).toBeDefined();
          // zipline states dividends split-adjusted, we store them as traded on the ex-date.
          const factor =
            source === 'zipline_csvdir' && e[3] === 'dividend'
              ? prices.find((p) => p.date === e[2])!.closeUnadj! / prices.find((p) => p.date === e[2])!.close
              : 1;
          expect(got!.value! / factor).toBeCloseTo(Number(e[4]), 5);
        }
      }
    }
  });

  it('the Quandl total-return index moves like its adj_close', () => {
    const q = parseReal(quandl);
    const adj = new Map(q.series.get('MSFT')!.map((b) => [b.date, b.adjClose!]));
    const { prices } = adjustSeries(q.series.get('MSFT')!, q.layout, 1, 'prices');
    const first = prices[0];
    const last = prices[prices.length - 1];
    expect(last.tri! / first.tri!).toBeCloseTo(adj.get(last.date)! / adj.get(first.date)!, 3);
  });

  it('the S&P 500 panel sample: 52 tickers, the 5 empty-field rows skipped or kept', () => {
    const parsed = parseReal(panel);
    expect(parsed.layout.name).toBe('panel');
    expect(parsed.series.size).toBe(52);
    const rows = [...parsed.series.values()].reduce((n, b) => n + b.length, 0);
    expect(rows + parsed.warnings.filter((w) => /row skipped/.test(w)).length).toBe(56_363);
    expect(parsed.series.get('AAPL')!.find((b) => b.date === '2014-06-09')!.close).toBeLessThan(100);
  });

  it.skipIf(!existsSync(fullPanel))('the full panel (gzip) has one impossible row: AOS 2014-05-19 with high < low', () => {
    let error: unknown;
    try {
      parseReal(fullPanel);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toMatch(/AOS 2014-05-19: high 23\.595 is below low 23\.85/);
    const lenient = parseReal(fullPanel, null, true);
    expect(lenient.series.size).toBe(505);
    expect(lenient.warnings.filter((w) => /row skipped/.test(w))).toEqual([
      expect.stringMatching(/AOS 2014-05-19: high 23\.595 is below low 23\.85, row skipped/),
    ]);
    // A close far outside its day's range is named with its file and line.
    const outside = lenient.warnings.filter((w) => /outside the day's low–high/.test(w));
    expect(outside).toContainEqual(
      expect.stringMatching(
        /^.*sp500_stocks_daily_2013-2018\.csv\.gz:\d+: LNT 2016-05-19: close 17\.87 is outside the day's low–high 35\.085–35\.785$/,
      ),
    );
    expect(outside.length).toBeLessThan(20);
    // The panel is split-adjusted: Apple's 7:1 of 2014 is not an overnight move.
    expect(lenient.warnings.filter((w) => /AAPL 2014-06-09/.test(w))).toEqual([]);
  });

  const lean = path.join(DATA, 'prices/lean_unadjusted_daily/AAPL.csv');
  it.skipIf(!existsSync(lean))("Apple's raw prices without splits: each split day is a file:line warning, whatever the basis said", () => {
    for (const basis of [undefined, 'raw'] as const) {
      const parsed = parsePriceCsv(readFileSync(lean, 'utf8'), lean, { ticker: 'AAPL', basis });
      const splits = parsed.warnings.filter((w) => /overnight/.test(w));
      expect(splits.map((w) => /AAPL (\d{4}-\d{2}-\d{2}).*like a (\S+) split/.exec(w)!.slice(1))).toEqual([
        ['2000-06-21', '2:1'],
        ['2005-02-28', '2:1'],
        ['2014-06-09', '7:1'],
        ['2020-08-31', '4:1'],
      ]);
      expect(splits[2]).toMatch(/AAPL\.csv:\d+: AAPL 2014-06-09: price moved 645\.57 → 92\.69 overnight/);
    }
  });
});

describe.skipIf(!existsSync(quandl))('a split- and dividend-adjusted file (Quandl WIKI AAPL 2014, adj_* columns)', () => {
  // The same year as a split- and dividend-adjusted file: Quandl's adj_close (CRSP-style factors
  // for the 7:1 split of 2014-06-09 and four dividends), with the dividends split-adjusted and the
  // split ratio, in the zipline csvdir layout; and the closes as traded to check against.
  // A skipped describe still runs its body to collect the tests: read only where the file is.
  const rows = (existsSync(quandl) ? readFileSync(quandl, 'utf8') : '')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','))
    .filter((c) => c[0] === 'AAPL');
  const splitAfter = (date: string) => (date < '2014-06-09' ? 7 : 1);
  // Quandl adjusted as of its own last day (2018): rescaled so the file is adjusted as of its last
  // bar, as a download ending on that day would be (its last adjusted close = its last close).
  const last = rows[rows.length - 1] ?? [];
  const base = Number(last[5]) / Number(last[12]);
  const adj = (x: string) => String(Number(x) * base);
  const adjusted = (withDividends: boolean) =>
    [
      withDividends ? 'date,open,high,low,close,volume,dividend,split' : 'date,open,high,low,close,volume',
      ...rows.map((c) =>
        [
          c[1],
          adj(c[9]),
          adj(c[10]),
          adj(c[11]),
          adj(c[12]),
          c[13],
          ...(withDividends ? [String(Number(c[7]) / splitAfter(c[1])), c[8]] : []),
        ].join(','),
      ),
    ].join('\n');

  it('market cap comes off a split-only close: the dividend factor is taken out again', () => {
    const parsed = parsePriceCsv(adjusted(true), 'AAPL.csv', { ticker: 'AAPL', basis: 'split-dividend-adjusted' });
    expect(parsed.warnings.filter((w) => w.includes('without the dividends'))).toEqual([]);
    const { prices, actions } = adjustSeries(parsed.series.get('AAPL')!, parsed.layout, 1, 'prices');
    expect(actions.filter((a) => a.action === 'dividend')).toHaveLength(4);
    expect(prices).toHaveLength(rows.length);
    // Every close back on the split-adjusted traded close: Quandl's factors differ from 1 − dividend
    // / previous close by up to 3.5e-5 per dividend (its own rounding), four dividends in the year.
    const error = rows.map((c, t) => Math.abs(prices[t].close / (Number(c[5]) / splitAfter(c[1])) - 1));
    expect(Math.max(...error)).toBeLessThan(1e-4);
    // The file's close itself was off by the year's four dividends (about 1.7 % in January).
    expect(Math.abs((Number(rows[0][12]) * base) / (Number(rows[0][5]) / 7) - 1)).toBeGreaterThan(0.015);
    rows.forEach((c, t) => {
      expect(Math.abs(prices[t].closeUnadj! / Number(c[5]) - 1)).toBeLessThan(1e-4);
      // The file's own close is the total-return index.
      expect(prices[t].tri).toBe(Number(adj(c[12])));
    });
  });

  it('without the dividends the importer says market cap carries the dividend factor', () => {
    const parsed = parsePriceCsv(adjusted(false), 'AAPL.csv', { ticker: 'AAPL', basis: 'split-dividend-adjusted' });
    expect(parsed.warnings.filter((w) => w.includes('without the dividends'))).toHaveLength(1);
    const { prices } = adjustSeries(parsed.series.get('AAPL')!, parsed.layout, 1, 'prices');
    expect(prices[0].close).toBe(Number(adj(rows[0][12])));
  });
});

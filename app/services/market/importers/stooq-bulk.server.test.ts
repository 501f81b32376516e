import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { openMarketReader } from '../store/open-store.server';
import { withMarketWriter } from '../store/writer.server';
import { importers } from './index.server';
import { lineProgress } from './testing/line-progress';

// Stooq's bulk d_us_txt.zip (no key): one file per ticker under data/daily/us/<market>/, in its
// <TICKER>,<PER>,<DATE>,... layout, imported in one run with the ETF folders left out.

const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-stooq-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = '<TICKER>,<PER>,<DATE>,<TIME>,<OPEN>,<HIGH>,<LOW>,<CLOSE>,<VOL>,<OPENINT>';
const file = (ticker: string, closes: number[]) =>
  strToU8([HEADER, ...closes.map((c, i) => `${ticker}.US,D,2024010${i + 2},000000,${c},${c + 1},${c - 1},${c},1000,0`)].join('\n') + '\n');

describe('Stooq bulk zip', () => {
  const zip = path.join(dir, 'd_us_txt.zip');
  writeFileSync(
    zip,
    zipSync({
      'data/daily/us/nasdaq stocks/1/exmp.us.txt': file('EXMP', [10, 11, 12]),
      'data/daily/us/nyse stocks/2/abcd.us.txt': file('ABCD', [20, 21]),
      'data/daily/us/nasdaq etfs/qqqx.us.txt': file('QQQX', [30, 31]),
      'data/daily/us/nyse stocks/2/empty.us.txt': strToU8(`${HEADER}\n`),
    }),
  );
  const run = async (market: string, args: string[]) =>
    withMarketWriter(market, {}, (writer) => importers.prices.run(args, { writer, progress: lineProgress(() => {}), env: {} }));

  it('imports every stock file of the zip in one run, leaving out the ETF folders unless asked', async () => {
    const market = path.join(dir, 'a.duckdb');
    const summary = await run(market, [zip]);
    expect(summary).toMatchObject({ securities: 2, rows: 5 });
    const reader = await openMarketReader(market);
    try {
      expect(await reader.all(`SELECT ticker FROM securities ORDER BY ticker`)).toEqual([{ ticker: 'ABCD' }, { ticker: 'EXMP' }]);
    } finally {
      reader.close();
    }
    expect((await run(path.join(dir, 'b.duckdb'), [zip, '--with-etfs'])).securities).toBe(3);
  });
});

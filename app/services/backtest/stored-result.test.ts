import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { runBacktest } from './engine';
import { inputsOf, screenOf, weekdays } from './engine/test-panel';
import { decodeResult, encodeResult, toStored } from './stored-result';
import { holdingCount, tradeCount, tradeSlice } from './stored-rows';

// Stored results: holdings and trades as columns (a few bytes a row), read back bit for bit, and
// results stored in the older plain-JSON format still readable.
const days = weekdays('2021-03-01', 30);
const securities = [1, 2, 3, 4].map((p) => ({
  permaticker: p,
  ticker: `T${p}`,
  tri: Array.from(days, (_, i) => 10 * p + Math.sin(i * p) + i * 0.1),
  metrics: {
    ret_12m: Array.from(days, (_, i) => Math.cos(i + p)),
    pe_ttm: Array.from(days, (_, i) => (i % 3 === p % 3 ? null : 10 + i)),
  },
}));
const result = runBacktest(
  inputsOf(days, securities, screenOf([], { ranking: [{ metric: 'ret_12m', direction: 'desc', weight: 1 }], columns: ['pe_ttm'] }), {
    rebalance: 'daily',
    topN: 2,
    commissionBps: 3,
  }),
);
const stored = toStored(result, null);

describe('stored results', () => {
  it('round-trip holdings (null values too), trades and curves exactly', () => {
    const back = decodeResult(encodeResult(stored));
    expect(JSON.parse(JSON.stringify(back))).toEqual(JSON.parse(JSON.stringify(stored)));
    expect(back.rebalances.map((b) => b.holdings)).toEqual(stored.rebalances.map((b) => b.holdings));
    expect(back.trades).toEqual(stored.trades);
    expect(stored.rebalances.some((b) => b.holdings.some((h) => h.values.pe_ttm === null))).toBe(true);
  });

  it('read a page of trades and holding counts without building every row', () => {
    const back = decodeResult(encodeResult(stored));
    expect(tradeCount(back)).toBe(stored.trades.length);
    expect(tradeSlice(back, 3, 7)).toEqual(stored.trades.slice(3, 7));
    expect(stored.rebalances.map((_, i) => holdingCount(back, i))).toEqual(stored.rebalances.map((b) => b.holdings.length));
  });

  it('are smaller than the same result as JSON', () => {
    const json = Buffer.from(gzipSync(strToU8(JSON.stringify(stored)), { level: 6 })).toString('base64');
    expect(encodeResult(stored).length).toBeLessThan(json.length);
  });

  it('stored by engine 1.0.0 as plain JSON stay readable', () => {
    const old = Buffer.from(gzipSync(strToU8(JSON.stringify({ ...stored, engineVersion: '1.0.0' })), { level: 6 })).toString('base64');
    const back = decodeResult(old);
    expect(back.engineVersion).toBe('1.0.0');
    expect(back.trades).toEqual(stored.trades);
    expect(tradeCount(back)).toBe(stored.trades.length);
  });
});

import { gzipSync, strToU8 } from 'fflate';
import { deserialize, serialize } from 'node:v8';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeColumns } from '../market/store/column-file';
import { runBacktest } from './engine';
import { inputsOf, screenOf, weekdays } from './engine/test-panel';
import { longResult, inMemoryPaged } from '../../../tests/support/paged-result';
import {
  decodeResult,
  encodeResult,
  loadedFromStored,
  readStoredLight,
  readStoredResult,
  pagedLayout,
  pagedLightRead,
  toStored,
  type PartLoader,
  type StoredLightPart,
  type StoredResult,
} from './stored-result';
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

  it('keep numbers JSON cannot write (NaN, ±Infinity), and a result without them reads the same', () => {
    const odd = {
      ...stored,
      statistics: { ...stored.statistics, sharpe: Number.NaN, sortino: Number.POSITIVE_INFINITY },
      drawdown: [Number.NEGATIVE_INFINITY, ...stored.drawdown.slice(1)],
    };
    const back = decodeResult(encodeResult(odd));
    expect(back.statistics.sharpe).toBeNaN();
    expect(back.statistics.sortino).toBe(Number.POSITIVE_INFINITY);
    expect(back.drawdown[0]).toBe(Number.NEGATIVE_INFINITY);
    expect(back.drawdown.slice(1)).toEqual(stored.drawdown.slice(1));
    expect(decodeResult(encodeResult(stored)).statistics).toEqual(stored.statistics);
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

// Paged results (format 4): the light part and parts of at most a few rows each, read back
// through the accessors; every number must be the one the whole (format 3) round trip gives.
const bits = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' ? Buffer.from(new Float64Array([x]).buffer).toString('hex') : x));

describe('paged stored results', () => {
  const long = longResult();
  const whole = decodeResult(encodeResult(long));

  it('span many parts of bounded size', () => {
    const { encoded } = inMemoryPaged(long, 1000);
    const holdings = encoded.parts.filter((p) => p.kind === 'holdings');
    const trades = encoded.parts.filter((p) => p.kind === 'trades');
    expect(holdings.length).toBeGreaterThan(20);
    expect(trades.length).toBeGreaterThan(5);
    expect(Math.max(...encoded.parts.map((p) => p.rows))).toBeLessThanOrEqual(1000);
    expect(holdings.reduce((n, p) => n + p.rows, 0)).toBe(long.rebalances.reduce((n, b) => n + b.holdings.length, 0));
    expect(trades.reduce((n, p) => n + p.rows, 0)).toBe(long.trades.length);
    expect(encoded.parts.map((p) => p.seq)).toEqual([...holdings.keys(), ...trades.keys()]);
    // The light part carries no rows: far smaller than the whole result.
    expect(encoded.light.length * 5).toBeLessThan(encodeResult(long).length);
  });

  it('read back bit for bit what the whole format-3 round trip reads, every rebalance and every trade', async () => {
    const { encoded, load } = inMemoryPaged(long, 1000);
    const paged = await readStoredResult(encoded.light, load);
    const old = loadedFromStored(whole);
    expect(bits(paged.light)).toBe(bits(old.light));
    expect(paged.rows.holdingCounts).toEqual(old.rows.holdingCounts);
    expect(paged.rows.tradeCount).toBe(whole.trades.length);
    expect(paged.rows.holdingMetrics()).toEqual(old.rows.holdingMetrics());
    for (let i = 0; i < whole.rebalances.length; i++) expect(bits(await paged.rows.holdingsOf(i))).toBe(bits(whole.rebalances[i].holdings));
    expect(bits(await paged.rows.tradeSlice(0, whole.trades.length))).toBe(bits(whole.trades));
    // A slice across part boundaries, one past the end, and none.
    expect(bits(await paged.rows.tradeSlice(999, 2501))).toBe(bits(whole.trades.slice(999, 2501)));
    expect(await paged.rows.tradeSlice(whole.trades.length - 1, whole.trades.length + 10)).toHaveLength(1);
    expect(await paged.rows.tradeSlice(5, 5)).toEqual([]);
    expect(await paged.rows.holdingsOf(whole.rebalances.length)).toEqual([]);
    expect(JSON.stringify(paged)).toBe(JSON.stringify(old));
  });

  it('written by earlier versions (gzipped, curves in the JSON) read back the same as the texts written now', async () => {
    const { encoded, load } = inMemoryPaged(long, 1000);
    expect([encoded.light, ...encoded.parts.map((p) => p.data)].every((t) => t.startsWith('br:'))).toBe(true);
    // What the paged writer stored before: gzipped, and the light part's curves in its JSON.
    const asGzip = (text: string) => {
      let bytes = brotliDecompressSync(Buffer.from(text.slice(3), 'base64'));
      if (bytes.subarray(0, 4).toString() === 'QBT4') {
        const end = 8 + bytes.readUInt32LE(4);
        const json = JSON.parse(bytes.subarray(8, end).toString()) as Record<string, unknown> & { survivors: { equity: unknown } };
        const curves = decodeColumns(bytes.subarray(end));
        for (const name of ['equity', 'benchmark', 'drawdown']) json[name] = Array.from(curves[name]);
        json.survivors.equity = Array.from(curves.survivorsEquity);
        const text = Buffer.from(JSON.stringify(json));
        const head = Buffer.alloc(8);
        head.write('QBT4');
        head.writeUInt32LE(text.length, 4);
        bytes = Buffer.concat([head, text]);
      }
      return Buffer.from(gzipSync(bytes, { level: 1 })).toString('base64');
    };
    const gzipLoad: PartLoader = async (key, kind, seq) => asGzip(await load(key, kind, seq));
    const now = await readStoredResult(encoded.light, load);
    const before = await readStoredResult(asGzip(encoded.light), gzipLoad);
    expect(bits(before.light)).toBe(bits(now.light));
    expect(JSON.stringify(before)).toBe(JSON.stringify(now));
    expect(bits(await before.rows.tradeSlice(0, whole.trades.length))).toBe(bits(whole.trades));
    for (const i of [0, 97, whole.rebalances.length - 1])
      expect(bits(await before.rows.holdingsOf(i))).toBe(bits(whole.rebalances[i].holdings));
    // A damaged text is an error, never a half-read result.
    await expect(readStoredResult(`br:${encoded.light.slice(3, 40)}`, load)).rejects.toThrow();
  });

  it('handed over decoded (structured-cloned, as over IPC), before the parts are encoded, read as their stored texts read', async () => {
    // A company renamed mid-run: the later ticker is the one every reader shows for it.
    const renamed: StoredResult = structuredClone(long);
    const perm = renamed.trades[0].permaticker;
    const late = Math.floor(renamed.trades.length / 2);
    for (const t of renamed.trades.slice(late)) if (t.permaticker === perm) t.ticker = 'RENAMED';
    for (const r of [long, stored, renamed]) {
      const { encoded, load, key } = inMemoryPaged(r, 1000);
      const early = pagedLightRead(r, key, pagedLayout(r, 1000));
      const handed = readStoredLight(deserialize(serialize(early)) as StoredLightPart, load);
      const read = await readStoredResult(encoded.light, load);
      expect(bits(handed.light)).toBe(bits(read.light));
      expect(JSON.stringify(handed)).toBe(JSON.stringify(read));
      expect(bits(await handed.rows.tradeSlice(0, 1e9))).toBe(bits(await read.rows.tradeSlice(0, 1e9)));
    }
    const again = inMemoryPaged(renamed, 1000);
    const read = await readStoredResult(again.encoded.light, again.load);
    expect((await read.rows.tradeSlice(0, 1e9)).filter((t) => t.permaticker === perm).map((t) => t.ticker)).toContain('RENAMED');
  });

  it('read only the parts covering the rows asked for', async () => {
    const { load, reads, encoded } = inMemoryPaged(long, 1000);
    const paged = await readStoredResult(encoded.light, load);
    expect(reads).toEqual([]);
    await paged.rows.holdingsOf(150);
    expect(reads).toHaveLength(1);
    await paged.rows.holdingsOf(150);
    expect(reads).toHaveLength(1);
    await paged.rows.tradeSlice(1500, 1600);
    expect(reads.at(-1)).toBe('trades:1');
    expect(reads).toHaveLength(2);
  });

  it('keep a rebalance larger than a part whole, in a part of its own', async () => {
    const { encoded, load } = inMemoryPaged(stored, 1);
    expect(encoded.parts.filter((p) => p.kind === 'holdings').map((p) => p.rows)).toEqual(stored.rebalances.map((b) => b.holdings.length));
    const paged = await readStoredResult(encoded.light, load);
    for (let i = 0; i < stored.rebalances.length; i++) expect(await paged.rows.holdingsOf(i)).toEqual(stored.rebalances[i].holdings);
    expect(await paged.rows.tradeSlice(0, 1000)).toEqual(stored.trades);
  });

  it('format 3 and format 1 results read through the same accessors', async () => {
    const never: PartLoader = () => Promise.reject(new Error('a whole result reads no parts'));
    const three = await readStoredResult(encodeResult(stored), never);
    expect(await three.rows.tradeSlice(3, 7)).toEqual(stored.trades.slice(3, 7));
    expect(await three.rows.holdingsOf(2)).toEqual(stored.rebalances[2].holdings);
    expect(three.rows.holdingCounts).toEqual(stored.rebalances.map((b) => b.holdings.length));
    const old = Buffer.from(gzipSync(strToU8(JSON.stringify({ ...stored, engineVersion: '1.0.0' })), { level: 6 })).toString('base64');
    const one = await readStoredResult(old, never);
    expect(one.light.engineVersion).toBe('1.0.0');
    expect(await one.rows.tradeSlice(0, 1e9)).toEqual(stored.trades);
    expect(one.rows.holdingMetrics()).toEqual(['ret_12m', 'pe_ttm']);
  });
});

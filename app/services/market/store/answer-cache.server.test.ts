import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ANSWER_CACHE_BYTES, answerCacheStats, cachedAnswer, clearAnswerCache } from './answer-cache.server';

// The answer cache keys by the store file's version: any file stands in for a store here.

const dir = mkdtempSync(path.join(tmpdir(), 'answer-cache-'));
const file = path.join(dir, 'market.duckdb');
writeFileSync(file, 'first');

afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => clearAnswerCache());

function counter<T>(value: () => T) {
  const calls = { n: 0 };
  const compute = async () => {
    calls.n++;
    return value();
  };
  return { calls, compute };
}

describe('cachedAnswer', () => {
  it('computes a question once per store version and gives the same answer again', async () => {
    const { calls, compute } = counter(() => ({ points: [1, 2, 3] }));
    const a = await cachedAnswer(file, ['series', 7, 'revenue_ttm', null], compute);
    const b = await cachedAnswer(file, ['series', 7, 'revenue_ttm', null], compute);
    expect(b).toBe(a);
    expect(calls.n).toBe(1);
    // Another question (another company, another as-of date, null vs a value) is another answer.
    await cachedAnswer(file, ['series', 8, 'revenue_ttm', null], compute);
    await cachedAnswer(file, ['series', 7, 'revenue_ttm', '2020-01-31'], compute);
    await cachedAnswer(file, ['series', 7, 'revenue_ttm', 'null'], compute);
    expect(calls.n).toBe(4);
  });

  it('shares one computation between concurrent askers', async () => {
    let release: (v: number) => void = () => {};
    let n = 0;
    const compute = () => {
      n++;
      return new Promise<number>((resolve) => (release = resolve));
    };
    const both = Promise.all([cachedAnswer(file, ['q'], compute), cachedAnswer(file, ['q'], compute)]);
    release(42);
    expect(await both).toEqual([42, 42]);
    expect(n).toBe(1);
  });

  it('keeps no failure: the next ask computes again', async () => {
    let fail = true;
    const compute = async () => {
      if (fail) throw new Error('store busy');
      return 'ok';
    };
    await expect(cachedAnswer(file, ['flaky'], compute)).rejects.toThrow('store busy');
    fail = false;
    expect(await cachedAnswer(file, ['flaky'], compute)).toBe('ok');
  });

  it('a newly published store (a new snapshot) is a new version: old answers are dropped, not served', async () => {
    let content = 'old snapshot';
    const compute = async () => content;
    expect(await cachedAnswer(file, ['overview', 1], compute)).toBe('old snapshot');
    // Publish like the writers do: a new file renamed over the old one.
    const next = path.join(dir, 'next.duckdb');
    writeFileSync(next, 'second, longer content');
    renameSync(next, file);
    content = 'new snapshot';
    expect(await cachedAnswer(file, ['overview', 1], compute)).toBe('new snapshot');
    expect(answerCacheStats().entries).toBe(1);
  });

  it('stays within its byte budget, dropping the least recently used answers', async () => {
    const big = 'x'.repeat(4 * 1024 * 1024); // ~8 MB as counted
    for (let i = 0; i < 20; i++) await cachedAnswer(file, ['big', i], async () => big + i);
    const stats = answerCacheStats();
    expect(stats.bytes).toBeLessThanOrEqual(ANSWER_CACHE_BYTES);
    expect(stats.entries).toBeLessThan(20);
    let recomputed = 0;
    await cachedAnswer(file, ['big', 0], async () => {
      recomputed++;
      return big;
    });
    expect(recomputed).toBe(1);
  });
});

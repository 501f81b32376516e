import { describe, expect, it } from 'vitest';
import { PromiseLru } from './lru';

describe('PromiseLru', () => {
  it('keeps at most its capacity, dropping the least recently used', async () => {
    const lru = new PromiseLru<number>(3);
    let computed = 0;
    const get = (k: string) => lru.get(k, async () => (computed++, k.length));
    for (const k of ['a', 'bb', 'ccc']) await get(k);
    await get('a'); // a is now the most recent
    await get('dddd'); // evicts bb
    expect(lru.size).toBe(3);
    expect(computed).toBe(4);
    await get('a');
    await get('ccc');
    expect(computed).toBe(4);
    await get('bb');
    expect(computed).toBe(5);
    for (let i = 0; i < 100; i++) await get(`k${i}`);
    expect(lru.size).toBe(3);
  });

  it('forgets a failure so the next call tries again', async () => {
    const lru = new PromiseLru<number>(2);
    await expect(lru.get('x', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await new Promise((r) => setTimeout(r, 0));
    expect(lru.size).toBe(0);
    expect(await lru.get('x', async () => 7)).toBe(7);
  });

  it('refuses a capacity below one', () => {
    expect(() => new PromiseLru(0)).toThrow(RangeError);
  });
});

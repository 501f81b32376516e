import { describe, expect, it } from 'vitest';
import { requestMemo, runInRequestScope } from './request-scope.server';

describe('requestMemo', () => {
  it('computes once per key inside one request scope', async () => {
    let calls = 0;
    const compute = async () => ++calls;
    const answers = await runInRequestScope(() =>
      Promise.all([requestMemo('a', compute), requestMemo('a', compute), requestMemo('b', compute)]),
    );
    expect(answers.slice(0, 2)).toEqual([1, 1]);
    expect(answers[2]).toBe(2);
    expect(calls).toBe(2);
  });

  it('does not share answers between scopes (two requests) or outside any scope', async () => {
    let calls = 0;
    const compute = async () => ++calls;
    expect(await runInRequestScope(() => requestMemo('a', compute))).toBe(1);
    expect(await runInRequestScope(() => requestMemo('a', compute))).toBe(2);
    expect(await requestMemo('a', compute)).toBe(3);
    expect(await requestMemo('a', compute)).toBe(4);
  });

  it('keeps the scope across awaits (loaders run after the handler awaited other work)', async () => {
    let calls = 0;
    const compute = async () => ++calls;
    const [first, second] = await runInRequestScope(async () => {
      const a = await requestMemo('a', compute);
      await new Promise((r) => setTimeout(r, 1));
      return [a, await requestMemo('a', compute)];
    });
    expect([first, second, calls]).toEqual([1, 1, 1]);
  });

  it('gives a kept rejection to every caller of the scope', async () => {
    let calls = 0;
    const compute = () => {
      calls++;
      return Promise.reject(new Error('invalid token'));
    };
    await runInRequestScope(async () => {
      await expect(requestMemo('t', compute)).rejects.toThrow('invalid token');
      await expect(requestMemo('t', compute)).rejects.toThrow('invalid token');
    });
    expect(calls).toBe(1);
  });
});

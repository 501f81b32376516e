import { describe, expect, it } from 'vitest';
import { announceRunEnded, runEndedOrAfter, waitingFor } from './stored-news.server';

describe('news of a backtest run that ended, in this process', () => {
  it('wakes the requests waiting for that backtest at once, and only those', async () => {
    const woken: string[] = [];
    const a = runEndedOrAfter('bt-a', 60_000).then((announced) => announced && woken.push('a'));
    const b = runEndedOrAfter('bt-b', 60_000).then((announced) => announced && woken.push('b'));
    expect(waitingFor('bt-a')).toBe(1);
    announceRunEnded('bt-a');
    await a;
    expect(woken).toEqual(['a']);
    expect(waitingFor('bt-a')).toBe(0);
    expect(waitingFor('bt-b')).toBe(1);
    announceRunEnded('bt-b');
    await b;
    expect(woken).toEqual(['a', 'b']);
    // The light part handed over with the news reaches the waiting request.
    const c = runEndedOrAfter('bt-d', 60_000);
    const light = { parts: { key: 'run-1' } };
    announceRunEnded('bt-d', light);
    expect(await c).toEqual({ light });
    expect(waitingFor('bt-b')).toBe(0);
  });

  it('gives up after the pause without news, and leaves no listener behind', async () => {
    expect(await runEndedOrAfter('bt-c', 5)).toBeNull();
    expect(waitingFor('bt-c')).toBe(0);
    // News of a run nobody waits for is no error.
    announceRunEnded('bt-c');
  });
});

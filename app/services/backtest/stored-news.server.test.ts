import { describe, expect, it } from 'vitest';
import { announceRunStored, announceRunStoring, waitingFor, watchRun } from './stored-news.server';

const fields = { summary: '{"totalReturn":0.1}', snapshotId: 'snap-1', engineVersion: '2.2.0', storedAt: '2026-11-29T20:00:00.000Z' };

describe('news of a backtest run being stored, in this process', () => {
  it('wakes the requests watching that backtest at once, and only those', async () => {
    const a = watchRun('bt-a');
    const b = watchRun('bt-b');
    expect(waitingFor('bt-a')).toBe(1);
    const nextA = a.next(60_000);
    const nextB = b.next(60_000);
    const light = { parts: { key: 'run-1' } };
    announceRunStoring('bt-a', { light, key: 'run-1', fields });
    // The light part and the row's new columns reach the request with the news.
    expect(await nextA).toEqual({ kind: 'storing', light, key: 'run-1', fields });
    announceRunStored('bt-a');
    expect(await a.next(60_000)).toEqual({ kind: 'stored' });
    a.close();
    expect(waitingFor('bt-a')).toBe(0);
    expect(waitingFor('bt-b')).toBe(1);
    announceRunStored('bt-b');
    expect(await nextB).toEqual({ kind: 'stored' });
    b.close();
    expect(waitingFor('bt-b')).toBe(0);
  });

  it('keeps news that comes while the request is busy, in order', async () => {
    const w = watchRun('bt-d');
    announceRunStoring('bt-d', { light: null, key: 'run-2', fields });
    announceRunStored('bt-d');
    expect((await w.next(60_000))?.kind).toBe('storing');
    expect((await w.next(60_000))?.kind).toBe('stored');
    w.close();
  });

  it('gives up after the pause without news, and leaves no listener behind', async () => {
    const w = watchRun('bt-c');
    expect(await w.next(5)).toBeNull();
    // Closing ends a pending wait at once.
    const pending = w.next(60_000);
    w.close();
    expect(await pending).toBeNull();
    expect(waitingFor('bt-c')).toBe(0);
    // News of a run nobody waits for is no error.
    announceRunStored('bt-c');
  });
});

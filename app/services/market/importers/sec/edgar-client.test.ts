import { describe, expect, it } from 'vitest';
import { createEdgarClient, SecHttpError } from './edgar-client.server';

// The client against a fake clock: no real waiting, exact request times.
function fakeClock() {
  let now = 0;
  return { now: () => now, sleep: async (ms: number) => void (now += ms) };
}

describe('EDGAR client', () => {
  it('never sends more than 10 requests in any one second', async () => {
    const clock = fakeClock();
    const times: number[] = [];
    const fetchImpl = (async () => {
      times.push(clock.now());
      return new Response('{}', { status: 200 });
    }) as unknown as typeof fetch;
    const client = createEdgarClient({ userAgent: 'ua', fetch: fetchImpl, ...clock });
    await Promise.all(Array.from({ length: 35 }, (_, i) => client.getJson(`https://data.sec.gov/${i}`)));
    expect(times).toHaveLength(35);
    for (let i = 10; i < times.length; i++) expect(times[i] - times[i - 10]).toBeGreaterThanOrEqual(1000);
    expect(times[34]).toBeLessThan(4000);
  });

  it('retries transient answers with backoff, and fails on other errors', async () => {
    const clock = fakeClock();
    const statuses = [503, 429, 200];
    const fetchImpl = (async () => new Response('{"ok":true}', { status: statuses.shift()! })) as unknown as typeof fetch;
    const client = createEdgarClient({ userAgent: 'ua', fetch: fetchImpl, ...clock });
    await expect(client.getJson('https://data.sec.gov/x')).resolves.toEqual({ ok: true });
    const failing = createEdgarClient({
      userAgent: 'ua',
      fetch: (async () => new Response('', { status: 403 })) as unknown as typeof fetch,
      ...clock,
    });
    await expect(failing.getJson('https://data.sec.gov/y')).rejects.toBeInstanceOf(SecHttpError);
  });
});

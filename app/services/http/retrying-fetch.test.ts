import { describe, expect, it } from 'vitest';
import { fetchWithRetry, HttpError, RETRY_STATUSES, retryDelay } from './retrying-fetch';

function server(statuses: number[], body: (s: number) => string = (s) => JSON.stringify({ detail: `status ${s}` })) {
  const calls: string[] = [];
  const fetcher = (async (url: string) => {
    const status = statuses[Math.min(calls.length, statuses.length - 1)];
    calls.push(String(url));
    return new Response(status === 204 ? null : body(status), { status, headers: status === 429 ? { 'Retry-After': '1' } : {} });
  }) as unknown as typeof fetch;
  return { fetcher, calls };
}
const noSleep = async () => {};

describe('retrying fetch', () => {
  it('retries exactly the statuses of the spec', () => {
    expect([...RETRY_STATUSES].sort((a, b) => a - b)).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
  });

  it('retries a 503 and returns the later success', async () => {
    const s = server([503, 503, 200]);
    const res = await fetchWithRetry('http://x/a', {}, { fetcher: s.fetcher, sleep: noSleep });
    expect(res.status).toBe(200);
    expect(s.calls).toHaveLength(3);
  });

  it('gives up after the bounded number of attempts with the last answer', async () => {
    const s = server([502]);
    const err = await fetchWithRetry('http://x/a', {}, { fetcher: s.fetcher, sleep: noSleep, attempts: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(502);
    expect((err as HttpError).data).toEqual({ detail: 'status 502' });
    expect(s.calls).toHaveLength(3);
  });

  it('does not retry other errors such as 400, 401, 404 or 501', async () => {
    for (const status of [400, 401, 404, 422, 501]) {
      const s = server([status, 200]);
      await expect(fetchWithRetry('http://x/a', {}, { fetcher: s.fetcher, sleep: noSleep })).rejects.toMatchObject({ status });
      expect(s.calls).toHaveLength(1);
    }
  });

  it('keeps a non-JSON error body as text', async () => {
    const s = server([404], () => '<html>gone</html>');
    await expect(fetchWithRetry('http://x/a', {}, { fetcher: s.fetcher, sleep: noSleep })).rejects.toMatchObject({
      data: '<html>gone</html>',
    });
  });

  it('backs off exponentially, capped, honouring Retry-After', () => {
    expect([1, 2, 3, 4].map((a) => retryDelay(a, null, 250, 1500))).toEqual([250, 500, 1000, 1500]);
    expect(retryDelay(1, '2', 250, 4000)).toBe(2000);
    expect(retryDelay(1, '3600', 250, 4000)).toBe(4000);
    expect(retryDelay(2, 'soon', 250, 4000)).toBe(500);
  });

  it('retries network failures too', async () => {
    let n = 0;
    const fetcher = (async () => {
      n++;
      if (n < 2) throw new TypeError('fetch failed');
      return new Response('{}', { status: 200 });
    }) as unknown as typeof fetch;
    expect((await fetchWithRetry('http://x', {}, { fetcher, sleep: noSleep })).status).toBe(200);
  });
});

import { describe, expect, it } from 'vitest';
import { conflict, notFound, tooManyRequests } from './errors';
import { orPageError, pageError, pageErrorResponse, pageNotFound, pathNotFound } from './page-errors';

async function thrown(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (e) {
    return e;
  }
  throw new Error('nothing was thrown');
}

describe('page errors', () => {
  it('turn a domain error into the Response the layout error boundary draws', async () => {
    const r = pageErrorResponse(notFound('Unknown company: 999999'));
    expect([r.status, r.statusText, await r.text()]).toEqual([404, 'Not Found', 'Unknown company: 999999']);
    const limited = pageErrorResponse(tooManyRequests(30));
    expect([limited.status, limited.headers.get('Retry-After')]).toEqual([429, '30']);
  });

  it('rethrow domain errors as Responses and anything else unchanged', async () => {
    const e = (await thrown(() => pageError(conflict('Already there.')))) as Response;
    expect(e).toBeInstanceOf(Response);
    expect([e.status, await e.text()]).toEqual([409, 'Already there.']);
    const bug = new TypeError('a bug');
    expect(await thrown(() => pageError(bug))).toBe(bug);
    const redirect = new Response(null, { status: 302 });
    expect(await thrown(() => pageError(redirect))).toBe(redirect);
  });

  it('awaits a service call and maps its failure', async () => {
    expect(await orPageError(Promise.resolve(7))).toBe(7);
    const e = (await thrown(() => orPageError(Promise.reject(notFound('Screener not found.'))))) as Response;
    expect([e.status, await e.text()]).toEqual([404, 'Screener not found.']);
  });

  it('says which page was not found', async () => {
    const e = (await thrown(() => pathNotFound(new Request('http://localhost/no/such?x=1')))) as Response;
    expect([e.status, await e.text()]).toEqual([404, 'Page not found: /no/such']);
    const f = (await thrown(() => pageNotFound('User not found.'))) as Response;
    expect([f.status, await f.text()]).toEqual([404, 'User not found.']);
  });
});

import { describe, expect, it } from 'vitest';
import { ifNoneMatchHits, marketCacheHeaders, marketEntityTag, withMarketCaching } from './market-caching';

const req = (headers: Record<string, string> = {}, method = 'GET') =>
  new Request('http://localhost/api/v1/market-overview', { method, headers });

describe('market data caching headers', () => {
  it('makes a weak entity tag of the version, with nothing a header could be broken by', () => {
    expect(marketEntityTag('abc123.e2')).toBe('W/"abc123.e2"');
    expect(marketEntityTag('a"b\r\nc')).toBe('W/"a_b__c"');
  });

  it('matches If-None-Match weakly, in a list, and for *', () => {
    const tag = 'W/"abc.e2"';
    expect(ifNoneMatchHits(req({ 'If-None-Match': 'W/"abc.e2"' }), tag)).toBe(true);
    expect(ifNoneMatchHits(req({ 'If-None-Match': '"abc.e2"' }), tag)).toBe(true);
    expect(ifNoneMatchHits(req({ 'If-None-Match': 'W/"x", W/"abc.e2"' }), tag)).toBe(true);
    expect(ifNoneMatchHits(req({ 'If-None-Match': '*' }), tag)).toBe(true);
    expect(ifNoneMatchHits(req({ 'If-None-Match': 'W/"abc.e3"' }), tag)).toBe(false);
    expect(ifNoneMatchHits(req(), tag)).toBe(false);
  });

  it('is public only for anonymous callers', () => {
    expect(marketCacheHeaders(req(), 'W/"t"')['Cache-Control']).toBe('public, max-age=300');
    expect(marketCacheHeaders(req({ Authorization: 'bearer x' }), 'W/"t"')['Cache-Control']).toBe('private, no-cache');
    expect(marketCacheHeaders(req({ Cookie: '__session=x' }), 'W/"t"')['Cache-Control']).toBe('private, no-cache');
  });

  it('answers 304 before doing the work, and leaves errors and other methods alone', async () => {
    let runs = 0;
    const answer = async () => {
      runs++;
      return new Response('{}', { headers: { 'Cache-Control': 'no-store' } });
    };
    const version = async () => 'v1';
    const hit = await withMarketCaching(req({ 'If-None-Match': 'W/"v1"' }), version, answer);
    expect(hit.status).toBe(304);
    expect(runs).toBe(0);
    const miss = await withMarketCaching(req({ 'If-None-Match': 'W/"v0"' }), version, answer);
    expect(miss.status).toBe(200);
    expect(miss.headers.get('ETag')).toBe('W/"v1"');
    expect(miss.headers.get('Cache-Control')).toBe('public, max-age=300');
    const error = await withMarketCaching(
      req(),
      version,
      async () => new Response('{}', { status: 404, headers: { 'Cache-Control': 'no-store' } }),
    );
    expect(error.headers.get('ETag')).toBeNull();
    expect(error.headers.get('Cache-Control')).toBe('no-store');
    const post = await withMarketCaching(req({ 'If-None-Match': 'W/"v1"' }, 'POST'), version, answer);
    expect(post.status).toBe(200);
    expect(post.headers.get('ETag')).toBeNull();
    const noStore = await withMarketCaching(req({ 'If-None-Match': '*' }), async () => null, answer);
    expect(noStore.status).toBe(200);
    expect(noStore.headers.get('ETag')).toBeNull();
  });
});

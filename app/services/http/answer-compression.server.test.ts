import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from './api.server';
import { compressedAnswer } from './answer-compression.server';

// The JSON API's answers compressed whole: as the client accepts (brotli on a tie), only JSON of a
// known length between 1 KB and 2 MB, never twice, never against `no-transform` or for a HEAD.

const large = { rows: Array.from({ length: 400 }, (_, i) => ({ i, name: `row ${i}`, value: i / 7 })) };

describe('compressing a JSON answer whole', () => {
  it('gives brotli or gzip as the client prefers, reading back as the plain text', async () => {
    const text = await jsonResponse(large).text();
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
    ] as const) {
      const packed = await compressedAnswer({ method: 'GET', acceptEncoding: accept }, jsonResponse(large, { status: 201 }));
      expect(packed).not.toBeNull();
      expect(packed!.status).toBe(201);
      expect(packed!.headers.get('Content-Encoding')).toBe(expected);
      expect(packed!.headers.get('Vary')).toBe('Accept-Encoding');
      const bytes = Buffer.from(await packed!.arrayBuffer());
      expect(packed!.headers.get('Content-Length')).toBe(String(bytes.length));
      expect(bytes.length).toBeLessThan(Buffer.byteLength(text));
      expect((expected === 'br' ? brotliDecompressSync(bytes) : gunzipSync(bytes)).toString('utf8')).toBe(text);
    }
  });

  it('says once that it varies by Accept-Encoding', async () => {
    const packed = await compressedAnswer(
      { method: 'GET', acceptEncoding: 'gzip' },
      jsonResponse(large, { headers: { Vary: 'Origin, Accept-Encoding' } }),
    );
    expect(packed!.headers.get('Vary')).toBe('Origin, Accept-Encoding');
  });

  it('leaves an answer as it is where it must not or need not be compressed', async () => {
    const text = await jsonResponse(large).text();
    const json = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) };
    const cases: [string, string | undefined, Response][] = [
      ['no Accept-Encoding', undefined, jsonResponse(large)],
      ['both refused', 'gzip;q=0, br;q=0', jsonResponse(large)],
      ['a HEAD', 'gzip', jsonResponse(large)],
      ['under 1 KB', 'gzip', jsonResponse({ ok: true })],
      ['already encoded', 'gzip', jsonResponse(large, { headers: { 'Content-Encoding': 'gzip' } })],
      ['no-transform', 'gzip', new Response(text, { headers: { ...json, 'Cache-Control': 'public, no-transform' } })],
      ['not JSON', 'gzip', new Response(text, { headers: { ...json, 'Content-Type': 'text/plain' } })],
      ['of unknown length', 'gzip', new Response(text, { headers: { 'Content-Type': 'application/json' } })],
    ];
    for (const [why, accept, response] of cases) {
      const method = why === 'a HEAD' ? 'HEAD' : 'GET';
      expect(await compressedAnswer({ method, acceptEncoding: accept }, response), why).toBeNull();
    }
  });
});

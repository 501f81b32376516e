import { describe, expect, it } from 'vitest';
import { jsonResponse, jsonResponseInTurns } from './api.server';

// A large JSON answer written in pieces is the same text, byte for byte, as written at once; a
// smaller one is written at once.
describe.each([9000, 500])('jsonResponseInTurns (%i rows)', (count) => {
  it('writes what jsonResponse writes: long arrays, nested objects, float noise, missing values', async () => {
    const rows = Array.from({ length: count }, (_, i) => ({
      n: i,
      value: 0.1 + 0.2 * i,
      ratio: i % 7 === 0 ? Number.NaN : i / 3,
      when: new Date(Date.UTC(2020, 0, 1 + (i % 300))),
      gone: undefined,
      list: [i, null, undefined, 1 / 3],
    }));
    const data = {
      id: 'x',
      skipped: undefined,
      f: () => 1,
      result: { rows, equity: Array.from({ length: 300 }, (_, i) => 1.1 * i), nested: { deep: [1e21, -0, 0.30000000000000004] } },
      tail: [undefined, 'a'],
      at: new Date(0),
    };
    const whole = jsonResponse(data, { status: 201, headers: { 'X-A': 'b' } });
    const inTurns = await jsonResponseInTurns(data, { status: 201, headers: { 'X-A': 'b' } });
    const text = await inTurns.text();
    expect(text).toBe(await whole.text());
    if (count > 8000) expect(text.length).toBeGreaterThan(256 * 1024);
    expect(inTurns.status).toBe(201);
    expect([...inTurns.headers.entries()]).toEqual([...whole.headers.entries()]);
  });
});

describe('jsonResponse', () => {
  it('says the length of its body in bytes (UTF-8), so a small answer is not compressed', async () => {
    const answer = jsonResponse({ name: 'Émile Zoë', n: 1.8400000000000003 });
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect(answer.headers.get('Content-Length')).toBe(String(bytes.byteLength));
    expect(bytes.byteLength).toBeGreaterThan('{"name":"Émile Zoë","n":1.84}'.length);
  });
});

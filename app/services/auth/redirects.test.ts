import { describe, expect, it } from 'vitest';
import { currentPath, safeRedirectPath } from './redirects';

describe('safeRedirectPath', () => {
  it.each([
    ['/', '/'],
    ['/screener', '/screener'],
    ['/screener/manage?sort=name&dir=asc', '/screener/manage?sort=name&dir=asc'],
    ['/company/AAPL/chart#top', '/company/AAPL/chart#top'],
    ['/data-browser/123/pe?as_of=2020-01-01', '/data-browser/123/pe?as_of=2020-01-01'],
    ['/a/../b', '/b'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ])('keeps the same-origin path %s', (input, expected) => {
    expect(safeRedirectPath(input, '/fallback')).toBe(expected);
  });

  it.each([
    ['empty', ''],
    ['protocol-relative', '//evil.example'],
    ['protocol-relative with path', '//evil.example/login'],
    ['backslash host', '/\\evil.example'],
    ['double backslash', '\\\\evil.example'],
    ['absolute https', 'https://evil.example/'],
    ['absolute http', 'http://127.0.0.1:3110/'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['data scheme', 'data:text/html,hi'],
    ['relative path', 'screener'],
    ['tab trick', '/\t/evil.example'],
    ['newline trick', '/\n/evil.example'],
    ['leading space', ' /screener'],
    ['dot-segment normalised to //', '/.//evil.example'],
    ['too long', '/' + 'a'.repeat(5000)],
  ])('rejects %s', (_label, input) => {
    expect(safeRedirectPath(input, '/fallback')).toBe('/fallback');
  });

  it.each([undefined, null, 42, {}, ['/screener']])('rejects the non-string %j', (input) => {
    expect(safeRedirectPath(input, '/fallback')).toBe('/fallback');
  });

  it('defaults the fallback to /', () => {
    expect(safeRedirectPath('https://evil.example')).toBe('/');
  });
});

describe('currentPath', () => {
  it('keeps path and query, drops the origin', () => {
    expect(currentPath(new Request('http://localhost:3000/screener?x=1'))).toBe('/screener?x=1');
  });
});

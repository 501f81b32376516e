import { describe, expect, it } from 'vitest';
import { afterSignInPath, currentPath, safeRedirectPath } from './redirects';

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

describe('afterSignInPath', () => {
  it('goes to the wanted page with access, through finishing the profile without', () => {
    expect(afterSignInPath(true, '/screener?x=1')).toBe('/screener?x=1');
    expect(afterSignInPath(true, null)).toBe('/');
    expect(afterSignInPath(false, '/company?query=group')).toBe('/finish-profile-creation?redirectTo=%2Fcompany%3Fquery%3Dgroup');
    expect(afterSignInPath(false, '')).toBe('/finish-profile-creation');
    expect(afterSignInPath(true, '//evil.example')).toBe('/');
  });
});

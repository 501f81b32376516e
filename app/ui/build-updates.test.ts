import { describe, expect, it } from 'vitest';
import { BUILD_CHECK_INTERVAL_MS, checkForNewBuild, RELOAD_GUARD_MS, shouldReload } from './build-updates';

describe('build updates', () => {
  it('uses the spec constants', () => {
    expect(BUILD_CHECK_INTERVAL_MS).toBe(3_600_000);
    expect(RELOAD_GUARD_MS).toBe(10_000);
  });
  it('reloads a path at most once per 10 seconds', () => {
    expect(shouldReload('/screener', 50_000, {})).toBe(true);
    expect(shouldReload('/screener', 50_000, { '/screener': 45_000 })).toBe(false);
    expect(shouldReload('/screener', 55_000, { '/screener': 45_000 })).toBe(true);
    expect(shouldReload('/watchlist', 50_000, { '/screener': 45_000 })).toBe(true);
  });
  it('sees a new build only when the server answers a different id', async () => {
    const answer = (id: string) => (async () => new Response(JSON.stringify({ id }), { status: 200 })) as unknown as typeof fetch;
    expect(await checkForNewBuild(answer('dev'))).toBe(false);
    expect(await checkForNewBuild(answer('b2'))).toBe(true);
    const failing = (async () => new Response('nope', { status: 503 })) as unknown as typeof fetch;
    expect(await checkForNewBuild(failing)).toBe(true); // an error keeps what was known
  });
});

import { isDomainError } from '../http/errors';
import { runScreen } from './run.server';
import { getScreener, recordScreenerRun, type SavedScreener } from './saved.server';

// "Last run" and "matches" of a saved screener are written when the user runs or saves it (a
// POST), never while a page is only being looked at: opening /screener?saved=… reads, and the
// address can be shared, bookmarked or prefetched without changing anything.

export type SavedRun = { screener: SavedScreener; count: number | null; unavailable: string | null };

/**
 * Runs a saved screener as of the latest data and records when and how many matched. When it
 * cannot run (no market data yet) nothing is recorded and `unavailable` says why; another user's
 * id is a 404.
 */
export async function runSavedScreener(userId: string, id: string, at = new Date()): Promise<SavedRun> {
  const screener = await getScreener(userId, id);
  try {
    const page = await runScreen(screener.screen, { asOf: 'latest', pageSize: 1 });
    await recordScreenerRun(userId, id, page.count, at);
    return { screener: { ...screener, lastRunAt: at.toISOString(), lastMatchCount: page.count }, count: page.count, unavailable: null };
  } catch (e) {
    if (!isDomainError(e)) throw e;
    return { screener, count: null, unavailable: e.detail };
  }
}

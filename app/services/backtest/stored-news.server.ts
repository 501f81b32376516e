import { EventEmitter } from 'node:events';

// In-process news that a backtest's run has ended: a request waiting for it (`Prefer: wait`) in
// the process whose job worker ran it hears at once, instead of at its next look at the row, and
// gets the stored light part with the news when the compute process sent it along. A request in
// another process (the run on another worker) still sees it at its next look.

const news = new EventEmitter();
// One listener per waiting request, each on its own backtest's id.
news.setMaxListeners(0);

/** `light`: the stored result's light part as the compute process handed it over (StoredLightPart), or null. */
export type RunEnded = { light: unknown };

/** Tells the requests waiting in this process that the backtest's run has ended, its result stored. */
export function announceRunEnded(backtestId: string, light: unknown = null): void {
  news.emit(backtestId, { light } satisfies RunEnded);
}

/** The news when the backtest's run is announced as ended in this process, null after `ms` without news. */
export function runEndedOrAfter(backtestId: string, ms: number): Promise<RunEnded | null> {
  return new Promise((resolve) => {
    const done = (ended: RunEnded | null) => {
      clearTimeout(timer);
      news.off(backtestId, onNews);
      resolve(ended);
    };
    const onNews = (ended: RunEnded) => done(ended);
    const timer = setTimeout(() => done(null), ms);
    news.once(backtestId, onNews);
  });
}

/** Requests of this process waiting for the backtest (tests). */
export function waitingFor(backtestId: string): number {
  return news.listenerCount(backtestId);
}

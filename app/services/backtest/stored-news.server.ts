import { EventEmitter } from 'node:events';

// In-process news that a backtest's run has ended: a request waiting for it (`Prefer: wait`) in
// the process whose job worker ran it hears at once, instead of at its next look at the row. A
// request in another process (the run on another worker) still sees it at its next look.

const news = new EventEmitter();
// One listener per waiting request, each on its own backtest's id.
news.setMaxListeners(0);

/** Tells the requests waiting in this process that the backtest's run has ended, its result stored. */
export function announceRunEnded(backtestId: string): void {
  news.emit(backtestId);
}

/** Resolves true when the backtest's run is announced as ended in this process, false after `ms` without news. */
export function runEndedOrAfter(backtestId: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (announced: boolean) => {
      clearTimeout(timer);
      news.off(backtestId, onNews);
      resolve(announced);
    };
    const onNews = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    news.once(backtestId, onNews);
  });
}

/** Requests of this process waiting for the backtest (tests). */
export function waitingFor(backtestId: string): number {
  return news.listenerCount(backtestId);
}

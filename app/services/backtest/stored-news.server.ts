import { EventEmitter } from 'node:events';
import type { ResultFields } from './result-parts.server';

// In-process news of a backtest's run, from the job worker that ran it to the requests waiting for
// it (`Prefer: wait`) in the same process: that its result is being stored (with the light part
// and what the row's columns will read, so a request can prepare its answer meanwhile), then that
// it is stored. A request in another process (the run on another worker) sees the run's end at
// its next look at the row.

export type RunNews =
  /** `light`: the result's light part as it is stored (StoredLightPart); `key`: its parts' key. */
  { kind: 'storing'; light: unknown; key: string; fields: ResultFields } | { kind: 'stored' };

const news = new EventEmitter();
// One listener per waiting request, each on its own backtest's id.
news.setMaxListeners(0);

/** Tells the requests waiting in this process that the backtest's result is being stored. */
export function announceRunStoring(backtestId: string, storing: Omit<Extract<RunNews, { kind: 'storing' }>, 'kind'>): void {
  news.emit(backtestId, { kind: 'storing', ...storing } satisfies RunNews);
}

/** Tells the requests waiting in this process that the backtest's run has ended, its result stored. */
export function announceRunStored(backtestId: string): void {
  news.emit(backtestId, { kind: 'stored' } satisfies RunNews);
}

export type RunWatch = {
  /** The next news (kept when it came before the call), or null after `ms` without any. */
  next(ms: number): Promise<RunNews | null>;
  /** Stops listening (a pending `next` gets null). */
  close(): void;
};

/** Listens to the backtest's news from now on: none is missed between two `next` calls. */
export function watchRun(backtestId: string): RunWatch {
  const heard: RunNews[] = [];
  let wake: (() => void) | null = null;
  const onNews = (n: RunNews) => {
    heard.push(n);
    wake?.();
  };
  news.on(backtestId, onNews);
  return {
    next(ms) {
      const first = heard.shift();
      if (first) return Promise.resolve(first);
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          wake = null;
          resolve(heard.shift() ?? null);
        };
        const timer = setTimeout(done, ms);
        wake = done;
      });
    },
    close() {
      news.off(backtestId, onNews);
      wake?.();
    },
  };
}

/** Requests of this process waiting for the backtest (tests). */
export function waitingFor(backtestId: string): number {
  return news.listenerCount(backtestId);
}

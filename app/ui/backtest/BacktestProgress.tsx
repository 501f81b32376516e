import { Form, Link, useFetchers, useNavigation, useRevalidator } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import type { BacktestStatus } from '~/services/backtest/backtests.server';
import { percent } from '~/ui/company/format';

// A backtest that is waiting, running, failed or cancelled. While it is unfinished the page
// follows it: with JavaScript the loader is revalidated every second (the progress bar moves),
// without it a <meta refresh> inside <noscript> reloads the page every 2 seconds — inside
// <noscript> so that a browser running scripts never reloads.

export const POLL_MS = 1_000;

/** Revalidates the page's loaders every `ms` while `active`, one request at a time, never while other loads are under way. */
export function usePolling(active: boolean, ms = POLL_MS): void {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const idle = useRef(false);
  idle.current = revalidator.state === 'idle' && navigation.state === 'idle' && fetchers.every((f) => f.state === 'idle');
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      // Not while a link, form or fetcher is loading: a revalidation then starts those loads over
      // (the router's interruptActiveLoads), and the aborted ones end in errors the browser logs
      // (a CI run's one flake: "AbortError: signal is aborted without reason"). One that a
      // navigation overtakes is aborted in turn, and its promise rejects: nothing to report (the
      // page being left, or the next look, takes over).
      if (idle.current) Promise.resolve(revalidate.current()).catch(() => undefined);
    }, ms);
    return () => clearInterval(timer);
  }, [active, ms]);
}

type Props = {
  id: string;
  status: BacktestStatus;
  progress: number;
  message: string | null;
  error: string | null;
  /** Owner's controls (cancel, run again); the shared page has none. */
  runAgainHref: string | null;
  canCancel: boolean;
};

export function BacktestProgress({ id, status, progress, message, error, runAgainHref, canCancel }: Props) {
  // Shown without a result: "succeeded" here means the result is a moment from being readable.
  const stopped = status === 'failed' || status === 'cancelled';
  usePolling(!stopped);
  if (stopped) {
    return (
      <section className="card callout--error" aria-labelledby="status-title">
        <h2 id="status-title">{status === 'failed' ? 'The backtest failed' : 'The backtest was cancelled'}</h2>
        <p role="alert">{error ?? message ?? (status === 'failed' ? 'It stopped with an error.' : 'It was stopped before it finished.')}</p>
        {runAgainHref ? (
          <p>
            <Link to={runAgainHref} className="button button--primary">
              Run again
            </Link>
          </p>
        ) : null}
      </section>
    );
  }
  const done = percent(progress);
  return (
    <section className="card" aria-labelledby="status-title">
      <noscript>
        <meta httpEquiv="refresh" content="2" />
      </noscript>
      <h2 id="status-title">{status === 'queued' ? 'Waiting for a worker' : status === 'running' ? 'Running' : 'Saving the result'}</h2>
      <p className="backtest-progress">
        <label htmlFor="backtest-progress">Progress</label>{' '}
        <progress id="backtest-progress" max={1} value={progress}>
          {done}
        </progress>{' '}
        <span role="status" data-testid="backtest-progress-text">
          {done}
          {message ? ` · ${message}` : ''}
        </span>
      </p>
      <noscript>
        <p className="muted">This page reloads itself every 2 seconds until the backtest is done.</p>
      </noscript>
      {canCancel ? (
        <Form method="post">
          <input type="hidden" name="intent" value="cancel" />
          <input type="hidden" name="id" value={id} />
          <button type="submit" className="button">
            Cancel backtest
          </button>
        </Form>
      ) : null}
    </section>
  );
}

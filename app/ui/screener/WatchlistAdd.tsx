import { useFetcher } from '@remix-run/react';
import { InlineStatus, type InlineReply } from '~/ui/forms/PageNotice';
import { useHydrated } from '~/ui/use-hydrated';

// Adding screener results to a watchlist without leaving the results: with JavaScript the form
// posts in the background (a fetcher, `inline=1`) and its answer shows beside the button; without
// it the post redirects back to the same results (query kept, the row's #anchor) and the answer
// shows beside that row (`notice`, the flashed answer for this row).

type Reply = InlineReply;

const Answer = ({ reply }: { reply: Reply | null | undefined }) => <InlineStatus reply={reply} />;

export function RowWatchlistAdd({
  permaticker,
  ticker,
  returnTo,
  notice,
}: {
  permaticker: number;
  ticker: string;
  returnTo: string;
  notice?: Reply | null;
}) {
  const fetcher = useFetcher<Reply>();
  const hydrated = useHydrated();
  const busy = fetcher.state !== 'idle';
  return (
    <fetcher.Form method="post" action="/watchlist" className="inline-form" preventScrollReset onSubmit={(e) => busy && e.preventDefault()}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="permaticker" value={permaticker} />
      <input type="hidden" name="redirect_to" value={`${returnTo}#row-${permaticker}`} />
      {hydrated ? <input type="hidden" name="inline" value="1" /> : null}
      {/* aria-disabled, not disabled: a disabled button drops the keyboard focus to the page. */}
      <button type="submit" className="button button--link" aria-disabled={busy || undefined}>
        Add<span className="visually-hidden"> {ticker}</span> to watchlist
      </button>
      <Answer reply={fetcher.data ?? notice} />
    </fetcher.Form>
  );
}

export const BULK_FORM_ID = 'screener-add-many';

export function BulkWatchlistAdd({
  lists,
  query,
  returnTo,
  count,
}: {
  lists: { id: string; name: string; isDefault: boolean }[];
  query: string;
  returnTo: string;
  count: number;
}) {
  const fetcher = useFetcher<Reply>();
  const hydrated = useHydrated();
  if (lists.length === 0 || count === 0) return null;
  const busy = fetcher.state !== 'idle';
  return (
    <fetcher.Form
      method="post"
      action="/watchlist"
      id={BULK_FORM_ID}
      className="screener-bulk"
      preventScrollReset
      onSubmit={(e) => busy && e.preventDefault()}
    >
      <input type="hidden" name="intent" value="add-many" />
      <input type="hidden" name="query" value={query} />
      <input type="hidden" name="redirect_to" value={`${returnTo}#results-heading`} />
      {hydrated ? <input type="hidden" name="inline" value="1" /> : null}
      <label htmlFor="bulk-list">Watchlist</label>
      <select id="bulk-list" name="list" defaultValue={lists.find((l) => l.isDefault)?.id ?? lists[0].id}>
        {lists.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </select>
      <button type="submit" name="scope" value="selected" className="button" aria-disabled={busy || undefined}>
        Add selected
      </button>
      <button type="submit" name="scope" value="all" className="button" aria-disabled={busy || undefined}>
        Add all {count} results
      </button>
      <Answer reply={fetcher.data} />
    </fetcher.Form>
  );
}

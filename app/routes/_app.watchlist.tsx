import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { guard, requireUser } from '~/services/auth/guard.server';
import { safeRedirectPath } from '~/services/auth/redirects';
import { errorModalRedirect, redirectWithAnswer, redirectWithModal } from '~/services/auth/session.server';
import { isDomainError } from '~/services/http/errors';
import { intent, intentAction } from '~/services/http/intent-action.server';
import { orPageError } from '~/services/http/page-errors';
import { readPageForm } from '~/services/http/request-body.server';
import { PermatickerSchema, StoredPermatickerSchema } from '~/services/watchlist/model';
import { screenPermatickers } from '~/services/screener/page.server';
import { addManyToWatchlist, addOutcomeMessage, addToWatchlist, MAX_BULK_ADD, watchlistPageData } from '~/services/watchlist/page.server';
import {
  createWatchlist,
  deleteWatchlist,
  removeItem,
  setItemNote,
  setWatchlistColumn,
  updateWatchlist,
} from '~/services/watchlist/watchlists.server';
import { ActionErrors } from '~/ui/forms/ActionErrors';
import { EmptyState } from '~/ui/layout/EmptyState';
import { watchlistModal } from '~/ui/watchlist/modals';
import { WatchlistTable } from '~/ui/watchlist/WatchlistTable';
import { WatchlistActions, WatchlistAddForms, WatchlistColumns, WatchlistPicker } from '~/ui/watchlist/WatchlistTools';

// /watchlist: several named lists per user; add and remove securities, a note per entry,
// columns from any catalogue metric, sort, CSV. Every change is a POST form that redirects.

export const meta: MetaFunction = () => [{ title: 'Watchlist · Quarry' }];
export const handle = { pageName: 'watchlist' };

const List = z.string().min(1).max(64);
/** The screener shows a watchlist answer in its results (a notice), other pages in a dialog. */
const inScreener = (to: string) => /^\/screener(?:[?#]|$)/.test(to);
const OnList = z.object({ list: List });

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await guard(request);
  if (!user) return { signedIn: false as const };
  const url = new URL(request.url);
  const { lists, view } = await orPageError(watchlistPageData(user.id, url.searchParams.get('list')));
  return { signedIn: true as const, lists, view, modal: watchlistModal(url.searchParams.get('modal'), view.watchlist) };
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session } = await requireUser(request);
  const formData = await readPageForm(request);
  const listParam = String(formData.get('list') ?? '');
  const back = listParam ? `/watchlist?list=${encodeURIComponent(listParam)}` : '/watchlist';
  const stay = () => redirect(back);
  return intentAction(formData, {
    cancelTo: back,
    refusalModal: errorModalRedirect(session, back, 'Watchlist'),
    intents: {
      add: intent(
        z.object({
          list: List.optional(),
          permaticker: StoredPermatickerSchema.optional(),
          security: z.string().max(40).optional(),
          redirect_to: z.string().max(4000).optional(),
          inline: z.literal('1').optional(),
        }),
        async (v) => {
          // From the screener the answer shows where the button was: in place with JavaScript
          // (a fetcher), else back on the same results (the redirect keeps the query and the row's
          // #anchor) with the answer beside that row.
          const to = safeRedirectPath(v.redirect_to, back);
          const answer = (said: { text: string; mode: 'success' | 'info' | 'error' }) =>
            redirectWithAnswer(session, to, said, { inPage: inScreener(to), row: v.permaticker, title: 'Watchlist' });
          try {
            const said = addOutcomeMessage(await addToWatchlist(user.id, { list: v.list, security: v.permaticker ?? v.security ?? '' }));
            return v.inline ? data(said) : answer(said);
          } catch (e) {
            if (!isDomainError(e) || e.status !== 422) throw e;
            return v.inline ? data({ text: e.detail, mode: 'error' as const }, 422) : answer({ text: e.detail, mode: 'error' });
          }
        },
      ),
      'add-many': intent(
        z.object({
          list: List.optional(),
          scope: z.enum(['selected', 'all']),
          permaticker: z.array(PermatickerSchema).max(MAX_BULK_ADD).default([]),
          query: z.string().max(60_000).default(''),
          redirect_to: z.string().max(4000).optional(),
          inline: z.literal('1').optional(),
        }),
        async (v) => {
          const to = safeRedirectPath(v.redirect_to, back);
          const ids = v.scope === 'all' ? await screenPermatickers(v.query, user.id) : v.permaticker;
          const said = await addManyToWatchlist(user.id, { list: v.list, permatickers: ids });
          if (v.inline) return data(said);
          return redirectWithAnswer(session, to, said, { inPage: inScreener(to), title: 'Watchlist' });
        },
        { refusals: 'modal' },
      ),
      remove: intent(OnList.extend({ permaticker: StoredPermatickerSchema }), async (v) => {
        await removeItem(user.id, v.list, v.permaticker);
        return stay();
      }),
      note: intent(
        OnList.extend({ permaticker: StoredPermatickerSchema, note: z.string().max(5000).default('') }),
        async (v) => {
          await setItemNote(user.id, v.list, v.permaticker, v.note);
          return stay();
        },
        { refusals: 'modal' },
      ),
      'add-column': intent(
        OnList.extend({ column: z.string().max(64) }),
        async (v) => {
          await setWatchlistColumn(user.id, v.list, v.column, true);
          return stay();
        },
        { refusals: 'modal' },
      ),
      'remove-column': intent(OnList.extend({ column: z.string().max(64) }), async (v) => {
        await setWatchlistColumn(user.id, v.list, v.column, false);
        return stay();
      }),
      sort: intent(OnList.extend({ key: z.string().max(64), dir: z.enum(['asc', 'desc']) }), async (v) => {
        await updateWatchlist(user.id, v.list, { sort: { key: v.key, dir: v.dir } });
        return stay();
      }),
      'create-list': intent(
        z.object({ name: z.string().max(1000).default('') }),
        async (v) => redirect(`/watchlist?list=${(await createWatchlist(user.id, { name: v.name })).id}`),
        { refusals: 'modal' },
      ),
      'rename-list': intent(
        OnList.extend({ name: z.string().max(1000).default('') }),
        async (v) => {
          await updateWatchlist(user.id, v.list, { name: v.name });
          return stay();
        },
        { refusals: 'modal' },
      ),
      'delete-list': intent(
        OnList.extend({ confirmed: z.string().optional() }),
        async (v) => {
          if (v.confirmed !== 'true') return stay();
          await deleteWatchlist(user.id, v.list);
          return redirectWithModal(session, '/watchlist', {
            kind: 'info',
            title: 'Watchlist deleted',
            content: 'The list was deleted.',
            mode: 'info',
          });
        },
        { refusals: 'modal' },
      ),
    },
  });
}

export default function WatchlistPage() {
  const d = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  if (!d.signedIn) {
    return (
      <>
        <h1>Watchlist</h1>
        <EmptyState title="Sign in to keep watchlists">
          <p>
            <Link to="/register">Register</Link> (free) or <Link to="/login?redirectTo=%2Fwatchlist">sign in</Link> to keep lists of
            companies with your notes.
          </p>
        </EmptyState>
      </>
    );
  }
  const { watchlist } = d.view;
  return (
    <>
      <h1>Watchlist</h1>
      <ActionErrors result={failed} />
      <WatchlistPicker lists={d.lists} current={watchlist.id} />
      <section aria-labelledby="list-heading">
        <h2 id="list-heading">
          {watchlist.name}
          {watchlist.isDefault ? <span className="muted"> (default)</span> : null}
        </h2>
        <WatchlistActions watchlist={watchlist} asOf={d.view.asOf} />
        {d.view.marketDataMissing ? <p className="notice">No market data is loaded, so values show as n/a.</p> : null}
        <WatchlistAddForms watchlist={watchlist} />
        <WatchlistColumns watchlist={watchlist} />
        <WatchlistTable view={d.view} />
      </section>
    </>
  );
}

import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { guard, requireUser } from '~/services/auth/guard.server';
import { safeRedirectPath } from '~/services/auth/redirects';
import { redirectWithModal } from '~/services/auth/session.server';
import { isDomainError } from '~/services/http/errors';
import { METRICS, getMetric } from '~/services/metrics/catalogue';
import { formatMetricValue } from '~/services/metrics/format';
import { defaultWatchlistId, resolveSecurity, watchlistPageData } from '~/services/watchlist/page.server';
import {
  addItem,
  createWatchlist,
  deleteWatchlist,
  getWatchlist,
  removeItem,
  setItemNote,
  updateWatchlist,
} from '~/services/watchlist/watchlists.server';
import { EmptyState } from '~/ui/layout/EmptyState';
import type { ModalState } from '~/services/http/modal-state';

// /watchlist: several named lists per user; add and remove securities, a note per entry,
// columns from any catalogue metric, sort, CSV. Every change is a POST form that redirects.

export const meta: MetaFunction = () => [{ title: 'Watchlist · Quarry' }];
export const handle = { pageName: 'watchlist' };

const List = z.string().min(1).max(64);
const Perm = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);
const ActionSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('add'),
    list: List.optional(),
    permaticker: Perm.optional(),
    security: z.string().max(40).optional(),
    redirect_to: z.string().max(4000).optional(),
  }),
  z.object({ intent: z.literal('remove'), list: List, permaticker: Perm }),
  z.object({ intent: z.literal('note'), list: List, permaticker: Perm, note: z.string().max(5000).default('') }),
  z.object({ intent: z.literal('add-column'), list: List, column: z.string().max(64) }),
  z.object({ intent: z.literal('remove-column'), list: List, column: z.string().max(64) }),
  z.object({ intent: z.literal('sort'), list: List, key: z.string().max(64), dir: z.enum(['asc', 'desc']) }),
  z.object({ intent: z.literal('create-list'), name: z.string().max(1000).default('') }),
  z.object({ intent: z.literal('rename-list'), list: List, name: z.string().max(1000).default('') }),
  z.object({ intent: z.literal('delete-list'), list: List, confirmed: z.string().optional() }),
]);

function modalFor(kind: string | null, list: { id: string; name: string }): ModalState | null {
  switch (kind) {
    case 'new-list':
      return {
        kind: 'prompt',
        title: 'New watchlist',
        content: 'Name the new list.',
        action: '/watchlist',
        label: 'Name',
        name: 'name',
        maxLength: 100,
        fields: { intent: 'create-list' },
      };
    case 'rename-list':
      return {
        kind: 'prompt',
        title: 'Rename watchlist',
        content: `New name for “${list.name}”.`,
        action: '/watchlist',
        label: 'Name',
        name: 'name',
        defaultValue: list.name,
        maxLength: 100,
        fields: { intent: 'rename-list', list: list.id },
      };
    case 'delete-list':
      return {
        kind: 'confirm',
        title: 'Delete watchlist?',
        content: `“${list.name}” and its notes will be deleted for good.`,
        action: '/watchlist',
        confirmLabel: 'Delete watchlist',
        danger: true,
        fields: { intent: 'delete-list', list: list.id },
      };
    default:
      return null;
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await guard(request);
  if (!user) return { signedIn: false as const };
  const url = new URL(request.url);
  try {
    const { lists, view } = await watchlistPageData(user.id, url.searchParams.get('list'));
    return { signedIn: true as const, lists, view, modal: modalFor(url.searchParams.get('modal'), view.watchlist) };
  } catch (e) {
    if (isDomainError(e) && e.status === 404) throw new Response('Watchlist not found.', { status: 404 });
    throw e;
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session } = await requireUser(request);
  const formData = await request.formData();
  const listParam = String(formData.get('list') ?? '');
  const back = listParam ? `/watchlist?list=${encodeURIComponent(listParam)}` : '/watchlist';
  if (formData.get('cancelled') === 'true') return redirect(back);
  const submission = parseWithZod(formData, { schema: ActionSchema });
  if (submission.status !== 'success') return data({ detail: 'Unknown action.' }, { status: 400 });
  const v = submission.value;
  const fail = (detail: string, to = back) =>
    redirectWithModal(session, to, { kind: 'error', title: 'Watchlist', error: { detail }, warning: true });
  try {
    switch (v.intent) {
      case 'add': {
        const to = safeRedirectPath(v.redirect_to, back);
        const listId = v.list ?? (await defaultWatchlistId(user.id));
        const list = await getWatchlist(user.id, listId);
        let security: { permaticker: number; ticker: string };
        try {
          security = v.permaticker !== undefined ? await resolveSecurity(String(v.permaticker)) : await resolveSecurity(v.security ?? '');
        } catch (e) {
          if (isDomainError(e) && e.status === 404) return fail(e.detail, to);
          throw e;
        }
        const { created } = await addItem(user.id, list.id, { permaticker: security.permaticker });
        return redirectWithModal(session, to, {
          kind: 'info',
          title: 'Watchlist',
          content: created ? `Added ${security.ticker} to ${list.name}.` : `${security.ticker} is already on ${list.name}.`,
          mode: 'success',
        });
      }
      case 'remove':
        await removeItem(user.id, v.list, v.permaticker);
        return redirect(back);
      case 'note':
        await setItemNote(user.id, v.list, v.permaticker, v.note);
        return redirect(back);
      case 'add-column':
      case 'remove-column': {
        const list = await getWatchlist(user.id, v.list);
        const columns = v.intent === 'add-column' ? [...list.columns, v.column.trim()] : list.columns.filter((c) => c !== v.column);
        await updateWatchlist(user.id, v.list, { columns });
        return redirect(back);
      }
      case 'sort':
        await updateWatchlist(user.id, v.list, { sort: { key: v.key, dir: v.dir } });
        return redirect(back);
      case 'create-list': {
        const list = await createWatchlist(user.id, { name: v.name });
        return redirect(`/watchlist?list=${list.id}`);
      }
      case 'rename-list':
        await updateWatchlist(user.id, v.list, { name: v.name });
        return redirect(back);
      case 'delete-list':
        if (v.confirmed !== 'true') return redirect(back);
        await deleteWatchlist(user.id, v.list);
        return redirectWithModal(session, '/watchlist', {
          kind: 'info',
          title: 'Watchlist deleted',
          content: 'The list was deleted.',
          mode: 'info',
        });
    }
  } catch (e) {
    if (!isDomainError(e)) throw e;
    if (e.status === 404) throw new Response(e.detail, { status: 404 });
    return fail(e.detail);
  }
}

type SignedIn = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { signedIn: true }>;

function SortHeader({
  listId,
  sortKey,
  text,
  sort,
  numeric,
}: {
  listId: string;
  sortKey: string;
  text: string;
  sort: { key: string; dir: string };
  numeric?: boolean;
}) {
  const active = sort.key === sortKey;
  const next = active && sort.dir === 'asc' ? 'desc' : active ? 'asc' : numeric ? 'desc' : 'asc';
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
      className={numeric ? 'num' : undefined}
    >
      <Form method="post" className="inline-form">
        <input type="hidden" name="intent" value="sort" />
        <input type="hidden" name="list" value={listId} />
        <input type="hidden" name="key" value={sortKey} />
        <input type="hidden" name="dir" value={next} />
        <button type="submit" className="button button--link">
          {text}
          <span className="visually-hidden">, sort {next === 'asc' ? 'ascending' : 'descending'}</span>
          {active ? <span aria-hidden="true">{sort.dir === 'asc' ? ' ▲' : ' ▼'}</span> : null}
        </button>
      </Form>
    </th>
  );
}

function WatchlistTable({ d }: { d: SignedIn }) {
  const { watchlist, rows } = d.view;
  const id = watchlist.id;
  if (rows.length === 0) return <p>This list is empty. Add a ticker above, or use “Add to watchlist” in the screener.</p>;
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid="watchlist-table">
        <caption className="visually-hidden">Securities on {watchlist.name}</caption>
        <thead>
          <tr>
            <SortHeader listId={id} sortKey="ticker" text="Ticker" sort={watchlist.sort} />
            <SortHeader listId={id} sortKey="name" text="Name" sort={watchlist.sort} />
            {watchlist.columns.map((c) => (
              <SortHeader key={c} listId={id} sortKey={c} text={getMetric(c)?.label ?? c} sort={watchlist.sort} numeric />
            ))}
            <SortHeader listId={id} sortKey="added_at" text="Added" sort={watchlist.sort} />
            <th scope="col">Note</th>
            <th scope="col">Remove</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.permaticker}>
              <th scope="row">
                <Link to={`/company/${encodeURIComponent(r.ticker)}`}>{r.ticker}</Link>
              </th>
              <td>{r.name}</td>
              {watchlist.columns.map((c) => {
                const def = getMetric(c);
                return (
                  <td key={c} className="num">
                    {def ? formatMetricValue(def, r.values[c]) : 'n/a'}
                  </td>
                );
              })}
              <td>{r.addedAt.slice(0, 10)}</td>
              <td>
                <Form method="post" className="inline-form watchlist-note">
                  <input type="hidden" name="intent" value="note" />
                  <input type="hidden" name="list" value={id} />
                  <input type="hidden" name="permaticker" value={r.permaticker} />
                  <label htmlFor={`note-${r.permaticker}`} className="visually-hidden">
                    Note for {r.ticker}
                  </label>
                  <input id={`note-${r.permaticker}`} name="note" defaultValue={r.note ?? ''} maxLength={1000} />
                  <button type="submit" className="button">
                    Save note<span className="visually-hidden"> for {r.ticker}</span>
                  </button>
                </Form>
              </td>
              <td>
                <Form method="post" className="inline-form">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="list" value={id} />
                  <input type="hidden" name="permaticker" value={r.permaticker} />
                  <button type="submit" className="button button--link">
                    Remove<span className="visually-hidden"> {r.ticker}</span>
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function WatchlistPage() {
  const d = useLoaderData<typeof loader>();
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
  const id = watchlist.id;
  return (
    <>
      <h1>Watchlist</h1>
      <nav aria-label="Your watchlists" className="screener-presets">
        <ul>
          {d.lists.map((l) => (
            <li key={l.id}>
              <Link to={`/watchlist?list=${l.id}`} aria-current={l.id === id ? 'page' : undefined}>
                {l.name} ({l.itemCount})
              </Link>
            </li>
          ))}
          <li>
            <Link to={`/watchlist?list=${id}&modal=new-list`}>New list…</Link>
          </li>
        </ul>
      </nav>
      <section aria-labelledby="list-heading">
        <h2 id="list-heading">
          {watchlist.name}
          {watchlist.isDefault ? <span className="muted"> (default)</span> : null}
        </h2>
        <p className="screener-actions">
          <Link to={`/watchlist?list=${id}&modal=rename-list`}>Rename list…</Link>
          <Link to={`/watchlist?list=${id}&modal=delete-list`} className="danger-link">
            Delete list…
          </Link>
          <a href={`/watchlist/csv?list=${id}`} className="button" download>
            Export CSV
          </a>
          {d.view.asOf ? <span className="muted">Values as of {d.view.asOf}.</span> : null}
        </p>
        {d.view.marketDataMissing ? <p className="notice">No market data is loaded, so values show as n/a.</p> : null}
        <div className="screener-add-grid">
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="add" />
            <input type="hidden" name="list" value={id} />
            <div className="field">
              <label htmlFor="add-security">Add a ticker</label>
              <input id="add-security" name="security" required maxLength={40} autoComplete="off" />
            </div>
            <button type="submit" className="button button--primary">
              Add to list
            </button>
          </Form>
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="add-column" />
            <input type="hidden" name="list" value={id} />
            <div className="field">
              <label htmlFor="add-column">Add a column</label>
              <select id="add-column" name="column" defaultValue="">
                <option value="" disabled>
                  Choose a metric
                </option>
                {METRICS.filter((m) => !watchlist.columns.includes(m.id)).map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.label}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="button">
              Add column
            </button>
          </Form>
        </div>
        {watchlist.columns.length > 0 ? (
          <ul className="screener-chips" aria-label="Columns">
            {watchlist.columns.map((c) => (
              <li key={c}>
                <Form method="post" className="inline-form">
                  <input type="hidden" name="intent" value="remove-column" />
                  <input type="hidden" name="list" value={id} />
                  <input type="hidden" name="column" value={c} />
                  {getMetric(c)?.label ?? c}{' '}
                  <button type="submit" className="button button--link">
                    Remove<span className="visually-hidden"> column {getMetric(c)?.label ?? c}</span>
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        ) : null}
        <WatchlistTable d={d} />
      </section>
    </>
  );
}

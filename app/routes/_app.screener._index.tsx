import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useLoaderData, useLocation } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { oldAsOfRedirect } from '~/services/http/as-of';
import { builderRedirect, screenerReturnPath } from '~/services/screener/builder';
import { listWatchlists } from '~/services/watchlist/watchlists.server';
import { orPageError } from '~/services/http/page-errors';
import { columnSetRedirect, listColumnSets } from '~/services/screener/column-sets.server';
import { presetQuery, screenerPageData } from '~/services/screener/page.server';
import { DEFAULT_PAGE_SIZE } from '~/services/screener/page-size';
import { MetricSuggestions } from '~/ui/screener/fields';
import { saveScreenModal } from '~/ui/screener/modals';
import { RankingAndColumns, RuleFields, UniverseFields } from '~/ui/screener/ScreenerFormParts';
import { ScreenerPresets, ScreenProblems } from '~/ui/screener/ScreenerPresets';
import { ScreenerResults } from '~/ui/screener/ScreenerResults';
import { useLiveScreen } from '~/ui/screener/use-live-screen';
import { useFocusAfterEdit } from '~/ui/screener/use-focus-after-edit';

// /screener: a GET form that builds the screen (every change is a submit, so it works without
// JavaScript and the URL is always the shareable screen), the results as of a date, sortable and
// paged, with CSV, explain, add-to-watchlist, save and backtest. Looking never writes: saving and
// running a saved screen are POSTs to /screener/manage. The form is a collapsible panel beside the
// results (above them on a narrow screen), so the results show without scrolling.

export const meta: MetaFunction = () => [{ title: 'Screener · Quarry' }];
export const handle = { pageName: 'screener' };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await guard(request);
  const url = new URL(request.url);
  const preset = url.searchParams.get('preset');
  if (preset) {
    const q = presetQuery(preset);
    throw redirect(q === null ? '/screener' : `/screener?${q}`);
  }
  const renamed = oldAsOfRedirect(url);
  if (renamed) throw redirect(renamed, 301);
  const to = builderRedirect(url.pathname, url.searchParams) ?? (await orPageError(columnSetRedirect(url, user?.id ?? null)));
  if (to) throw redirect(to);
  const data = await screenerPageData(url.searchParams, user?.id ?? null);
  const wantsSave = url.searchParams.get('modal') === 'save' && user && data.errors.length === 0;
  const lists = user ? (await listWatchlists(user.id)).map((l) => ({ id: l.id, name: l.name, isDefault: l.isDefault })) : [];
  const columnSets = user ? (await listColumnSets(user.id)).map((c) => ({ id: c.id, name: c.name, columns: c.columns })) : [];
  return {
    ...data,
    lists,
    columnSets,
    signedIn: user !== null,
    modal: wantsSave ? saveScreenModal(data.query, screenerReturnPath(url)) : null,
  };
}

export default function ScreenerPage() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  const live = useLiveScreen<typeof loader>(location.search);
  const view = live.data ?? data;
  const pathWithSearch = location.pathname + live.search;
  const general = view.errors.filter((e) => !e.param.startsWith('r.'));
  const focusAfterEdit = useFocusAfterEdit(location.search);
  return (
    <>
      <h1>Stock screener</h1>
      {data.saved ? (
        <p>
          Saved screen: <strong>{data.saved.name}</strong> · <Link to="/screener/manage">Saved screeners</Link>
        </p>
      ) : null}
      <ScreenerPresets />
      <ScreenProblems errors={view.errors} />
      <div className="screener-layout">
        <details className="screener-panel" open>
          <summary>
            Filters <span className="muted">({data.ruleTexts.length === 1 ? '1 rule' : `${data.ruleTexts.length} rules`})</span>
          </summary>
          {/* Keyed by the URL: after a (client-side) navigation every field shows the new screen. */}
          <Form
            key={location.search}
            method="get"
            action="/screener"
            className="screener-form"
            preventScrollReset
            onChange={live.onEdit}
            onSubmit={(event) => {
              live.cancel();
              focusAfterEdit(event);
            }}
            aria-describedby={general.length > 0 ? 'screen-errors' : undefined}
          >
            {/* First in the form: Enter in any field runs the screen (the first submit button wins). */}
            <button type="submit" name="run" value="1" className="button button--primary">
              Run screen
            </button>
            {data.saved ? <input type="hidden" name="saved" value={data.saved.id} /> : null}
            {data.screen.sort ? <input type="hidden" name="sort" value={`${data.screen.sort.key}:${data.screen.sort.dir}`} /> : null}
            {data.pageSize !== DEFAULT_PAGE_SIZE ? <input type="hidden" name="size" value={data.pageSize} /> : null}
            <MetricSuggestions />
            <RuleFields data={data} />
            <UniverseFields data={data} />
            <RankingAndColumns data={data} />
            <button type="submit" name="run" value="1" className="button button--primary">
              Run screen
            </button>
          </Form>
        </details>
        <div className="screener-main">
          <p className="visually-hidden" role="status" aria-live="polite">
            {live.loading ? 'Updating results…' : ''}
          </p>
          {view.unavailable ? (
            <p className="notice" role="status">
              {view.unavailable}
            </p>
          ) : null}
          <ScreenerResults data={view} search={live.search} pathWithSearch={pathWithSearch} />
        </div>
      </div>
    </>
  );
}

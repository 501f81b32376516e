import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useFetcher, useLoaderData, useLocation } from '@remix-run/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { guard } from '~/services/auth/guard.server';
import { METRICS, getMetric } from '~/services/metrics/catalogue';
import { formatMetricValue } from '~/services/metrics/format';
import { builderRedirect, screenQueryFromForm } from '~/services/screener/builder';
import { COMPARE_OPS } from '~/services/screener/expression';
import { PRESETS } from '~/services/screener/presets';
import { presetQuery, screenerPageData } from '~/services/screener/page.server';
import type { ModalState } from '~/services/http/modal-state';

// /screener: a GET form that builds the screen (every change is a submit, so it works without
// JavaScript and the URL is always the shareable screen), the results as of a date, sortable and
// paged, with CSV, explain, add-to-watchlist, save and backtest.

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
  const to = builderRedirect(url.pathname, url.searchParams);
  if (to) throw redirect(to);
  const data = await screenerPageData(url.searchParams, user?.id ?? null);
  let modal: ModalState | null = null;
  if (url.searchParams.get('modal') === 'save' && user && data.errors.length === 0) {
    modal = {
      kind: 'prompt',
      title: 'Save screen',
      content: 'Give the screen a name. You will find it under Saved screeners.',
      action: '/screener/manage',
      label: 'Name',
      name: 'name',
      maxLength: 100,
      fields: { intent: 'create', query: data.query },
    };
  }
  return { ...data, signedIn: user !== null, modal };
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

const METRIC_LIST_ID = 'screener-metric-ids';

function label(id: string): string {
  return getMetric(id)?.label ?? id;
}

function withParams(search: string, changes: Record<string, string | null>): string {
  const p = new URLSearchParams(search);
  p.delete('modal');
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) p.delete(k);
    else p.set(k, v);
  }
  const qs = p.toString();
  return qs ? `?${qs}` : '?';
}

function MetricInput({ id, name, text, defaultValue }: { id: string; name: string; text: string; defaultValue?: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>{text}</label>
      <input id={id} name={name} list={METRIC_LIST_ID} defaultValue={defaultValue} autoComplete="off" spellCheck={false} />
    </div>
  );
}

function Select({
  id,
  name,
  text,
  options,
  defaultValue,
}: {
  id: string;
  name: string;
  text: string;
  options: readonly (string | [string, string])[];
  defaultValue?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{text}</label>
      <select id={id} name={name} defaultValue={defaultValue}>
        {options.map((o) => {
          const [value, shown] = typeof o === 'string' ? [o, o] : o;
          return (
            <option key={value} value={value}>
              {shown}
            </option>
          );
        })}
      </select>
    </div>
  );
}

function UniverseFields({ data }: { data: Data }) {
  const u = data.screen.universe;
  const multi = (name: string, text: string, options: string[], selected: string[]) => (
    <div className="field">
      <label htmlFor={`u-${name}`}>{text}</label>
      <select id={`u-${name}`} name={name} multiple size={Math.min(6, Math.max(2, options.length))} defaultValue={selected}>
        {[...new Set([...options, ...selected])].map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <fieldset className="screener-fieldset">
      <legend>Universe</legend>
      <div className="screener-grid">
        {multi('exchange', 'Exchanges (none = all)', data.choices.exchanges, u.exchanges)}
        {multi('sector', 'Sectors (none = all)', data.choices.sectors, u.sectors)}
        {multi('industry', 'Industries (none = all)', data.choices.industries, u.industries)}
        <div className="field">
          <label htmlFor="u-mcap-min">Market cap at least (USD)</label>
          <input id="u-mcap-min" name="mcap_min" type="number" min="0" step="any" defaultValue={u.marketCapMin ?? ''} />
        </div>
        <div className="field">
          <label htmlFor="u-mcap-max">Market cap at most (USD)</label>
          <input id="u-mcap-max" name="mcap_max" type="number" min="0" step="any" defaultValue={u.marketCapMax ?? ''} />
        </div>
        <div className="checkbox">
          <input id="u-delisted" name="delisted" type="checkbox" value="1" defaultChecked={u.includeDelisted} />
          <label htmlFor="u-delisted">Include securities delisted by the as-of date</label>
        </div>
      </div>
    </fieldset>
  );
}

function RuleFields({ data }: { data: Data }) {
  const ruleError = (i: number) => data.errors.find((e) => e.param === `r.${i}`)?.message;
  return (
    <fieldset className="screener-fieldset">
      <legend>Rules</legend>
      {data.ruleTexts.length === 0 ? <p className="muted">No rules yet: every security in the universe matches. Add rules below.</p> : null}
      <ol className="screener-rules">
        {data.ruleTexts.map((text, i) => {
          const err = ruleError(i);
          return (
            <li key={`${i}-${text}`}>
              <label htmlFor={`rule-${i}`}>Rule {i + 1}</label>
              <input
                id={`rule-${i}`}
                name="r"
                defaultValue={text}
                className="screener-rule-input"
                aria-invalid={err ? true : undefined}
                aria-describedby={err ? `rule-${i}-error` : undefined}
                spellCheck={false}
              />
              <button type="submit" name="remove" value={i} className="button">
                Remove rule {i + 1}
              </button>
              {err ? (
                <p id={`rule-${i}-error`} className="field__error">
                  {err}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      <details className="screener-add" open>
        <summary>Add a rule</summary>
        <div className="screener-add-grid">
          <fieldset>
            <legend>Metric compared with a value</legend>
            <MetricInput id="add-metric" name="add_metric" text="Metric" />
            <Select id="add-op" name="add_op" text="Operator" options={[...COMPARE_OPS, 'between']} defaultValue=">" />
            <div className="field">
              <label htmlFor="add-value">Value</label>
              <input id="add-value" name="add_value" inputMode="decimal" />
            </div>
            <div className="field">
              <label htmlFor="add-value2">And (for between)</label>
              <input id="add-value2" name="add_value2" inputMode="decimal" />
            </div>
            <button type="submit" name="add" value="value" className="button">
              Add value rule
            </button>
          </fieldset>
          <fieldset>
            <legend>Metric compared with a metric</legend>
            <MetricInput id="cmp-left" name="cmp_left" text="Metric" />
            <Select id="cmp-op" name="cmp_op" text="Operator" options={COMPARE_OPS} defaultValue=">" />
            <div className="field">
              <label htmlFor="cmp-factor">Factor</label>
              <input id="cmp-factor" name="cmp_factor" inputMode="decimal" defaultValue="1" />
            </div>
            <MetricInput id="cmp-right" name="cmp_right" text="Other metric" />
            <button type="submit" name="add" value="compare" className="button">
              Add comparison
            </button>
          </fieldset>
          <fieldset>
            <legend>Percentile rank in a group</legend>
            <MetricInput id="rank-metric" name="rank_metric" text="Metric" />
            <Select id="rank-side" name="rank_side" text="Side" options={['top', 'bottom']} />
            <div className="field">
              <label htmlFor="rank-pct">Percent</label>
              <input id="rank-pct" name="rank_pct" type="number" min="1" max="100" defaultValue="20" />
            </div>
            <Select id="rank-within" name="rank_within" text="Within" options={['universe', 'sector', 'industry']} />
            <button type="submit" name="add" value="rank" className="button">
              Add rank rule
            </button>
          </fieldset>
          <fieldset>
            <legend>Sector, industry or exchange</legend>
            <Select id="cat-field" name="cat_field" text="Field" options={['sector', 'industry', 'exchange']} />
            <Select
              id="cat-op"
              name="cat_op"
              text="Operator"
              options={[
                ['in', 'is one of'],
                ['not_in', 'is none of'],
              ]}
            />
            <div className="field">
              <label htmlFor="cat-values">Values (comma-separated)</label>
              <input id="cat-values" name="cat_values" />
            </div>
            <button type="submit" name="add" value="category" className="button">
              Add category rule
            </button>
          </fieldset>
          <fieldset>
            <legend>Expression</legend>
            <div className="field">
              <label htmlFor="expr-text">Expression, e.g. (revenue_ttm - cost_of_revenue_ttm) / total_assets &gt; 0.1</label>
              <input id="expr-text" name="expr_text" spellCheck={false} />
            </div>
            <button type="submit" name="add" value="expr" className="button">
              Add expression rule
            </button>
          </fieldset>
        </div>
      </details>
    </fieldset>
  );
}

function RankingAndColumns({ data }: { data: Data }) {
  const s = data.screen;
  return (
    <fieldset className="screener-fieldset">
      <legend>Ranking and columns</legend>
      <div className="screener-add-grid">
        <fieldset>
          <legend>Ranking</legend>
          {s.ranking.length === 0 ? <p className="muted">Not ranked.</p> : null}
          <ul className="screener-chips">
            {s.ranking.map((p, i) => (
              <li key={`${p.metric}-${i}`}>
                <input type="hidden" name="rank" value={`${p.metric}:${p.direction}${p.weight === 1 ? '' : `:${p.weight}`}`} />
                {label(p.metric)} ({p.direction === 'desc' ? 'higher is better' : 'lower is better'}, weight {p.weight}){' '}
                <button type="submit" name="remove_rank" value={i} className="button button--link">
                  Remove ranking by {label(p.metric)}
                </button>
              </li>
            ))}
          </ul>
          <MetricInput id="rank-add-metric" name="rank_add_metric" text="Rank by metric" />
          <Select
            id="rank-add-dir"
            name="rank_add_dir"
            text="Better is"
            options={[
              ['desc', 'higher'],
              ['asc', 'lower'],
            ]}
          />
          <div className="field">
            <label htmlFor="rank-add-weight">Weight</label>
            <input id="rank-add-weight" name="rank_add_weight" type="number" min="0.01" step="any" defaultValue="1" />
          </div>
          <button type="submit" name="add" value="ranking" className="button">
            Add to ranking
          </button>
        </fieldset>
        <fieldset>
          <legend>Extra columns</legend>
          <ul className="screener-chips">
            {s.columns.map((c, i) => (
              <li key={c}>
                <input type="hidden" name="col" value={c} />
                {label(c)}{' '}
                <button type="submit" name="remove_col" value={i} className="button button--link">
                  Remove column {label(c)}
                </button>
              </li>
            ))}
          </ul>
          <MetricInput id="add-col" name="add_col" text="Column metric" />
          <button type="submit" name="add" value="column" className="button">
            Add column
          </button>
        </fieldset>
        <fieldset>
          <legend>Limit and date</legend>
          <div className="field">
            <label htmlFor="limit">Keep the best N by rank (empty = all)</label>
            <input id="limit" name="limit" type="number" min="1" max="10000" defaultValue={s.limit ?? ''} />
          </div>
          <div className="field">
            <label htmlFor="asof">As of date (empty = latest)</label>
            <input id="asof" name="asof" type="date" defaultValue={data.asOfParam} />
          </div>
        </fieldset>
      </div>
    </fieldset>
  );
}

function Explanation({ data, search }: { data: Data; search: string }) {
  const e = data.explanation;
  if (!e) return null;
  const checks = [...e.universe, ...e.rules];
  return (
    <section className="card" aria-labelledby="explain-heading">
      <h2 id="explain-heading">
        Why {e.ticker ?? e.permaticker} is {e.passes ? 'in' : 'out'}
      </h2>
      {!e.inSnapshot ? (
        <p>This security has no data as of {e.asOf} (not listed then).</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Checks for {e.ticker}</caption>
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">Result</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {checks.map((c, i) => (
              <tr key={i}>
                <td>
                  <code>{c.label}</code>
                </td>
                <td className={c.passes ? 'screener-pass' : 'screener-fail'}>{c.passes ? 'Pass' : 'Fail'}</td>
                <td>{c.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {e.rank !== null ? <p>Rank {e.rank}.</p> : null}
      <p>
        <Link to={withParams(search, { explain: null })}>Close explanation</Link>
      </p>
    </section>
  );
}

function Results({ data, search, pathWithSearch }: { data: Data; search: string; pathWithSearch: string }) {
  const r = data.results;
  if (!r) return null;
  const ranked = data.screen.ranking.length > 0;
  const sort = data.screen.sort ?? (ranked ? { key: 'rank', dir: 'asc' } : { key: 'ticker', dir: 'asc' });
  const header = (key: string, text: string, numeric = false) => {
    const active = sort.key === key;
    const nextDir = active && sort.dir === 'asc' ? 'desc' : active ? 'asc' : numeric && key !== 'rank' ? 'desc' : 'asc';
    return (
      <th
        scope="col"
        key={key}
        aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
        className={numeric ? 'num' : undefined}
      >
        <Link to={withParams(search, { sort: `${key}:${nextDir}`, page: null })}>
          {text}
          <span className="visually-hidden">, sort {nextDir === 'asc' ? 'ascending' : 'descending'}</span>
          {active ? <span aria-hidden="true">{sort.dir === 'asc' ? ' ▲' : ' ▼'}</span> : null}
        </Link>
      </th>
    );
  };
  const csvHref = `/screener/csv${withParams(search, { explain: null })}`;
  return (
    <section aria-labelledby="results-heading">
      <h2 id="results-heading">Results</h2>
      <p className="screener-summary" data-testid="screener-count">
        <strong>{r.count}</strong> {r.count === 1 ? 'match' : 'matches'} of {r.universeCount} in the universe, as of{' '}
        <time dateTime={r.asOf}>{r.asOf}</time>.
      </p>
      <p className="screener-actions">
        <a href={csvHref} className="button" download>
          Download CSV
        </a>
        {data.signedIn ? (
          <Link to={withParams(search, { modal: 'save', explain: null })} className="button">
            Save screen…
          </Link>
        ) : (
          <span>
            <Link to="/register">Register</Link> or <Link to={`/login?redirectTo=${encodeURIComponent(pathWithSearch)}`}>sign in</Link> to
            save screens.
          </span>
        )}
        {data.saved && data.signedIn ? (
          <Form method="post" action="/screener/manage" className="inline-form">
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="id" value={data.saved.id} />
            <input type="hidden" name="query" value={data.query} />
            <button type="submit" className="button">
              Save changes to “{data.saved.name}”
            </button>
          </Form>
        ) : null}
        {data.saved ? (
          <Link to={`/backtest?screener_id=${encodeURIComponent(data.saved.id)}`} className="button">
            Backtest this screen
          </Link>
        ) : (
          <span className="muted">Save the screen to backtest it.</span>
        )}
      </p>
      {r.rows.length === 0 ? (
        <p>No security passes every rule.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" data-testid="screener-results">
            <caption className="visually-hidden">
              Securities passing the screen, page {r.page} of {r.pageCount}
            </caption>
            <thead>
              <tr>
                {ranked ? header('rank', 'Rank', true) : null}
                {header('ticker', 'Ticker')}
                {header('name', 'Name')}
                {header('sector', 'Sector')}
                {r.columns.map((c) => header(c, label(c), true))}
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {r.rows.map((row) => (
                <tr key={row.permaticker}>
                  {ranked ? <td className="num">{row.rank ?? 'n/a'}</td> : null}
                  <th scope="row">
                    <Link to={`/company/${encodeURIComponent(row.ticker)}`}>{row.ticker}</Link>
                  </th>
                  <td>{row.name}</td>
                  <td>{row.sector ?? 'n/a'}</td>
                  {r.columns.map((c) => {
                    const def = getMetric(c);
                    return (
                      <td key={c} className="num">
                        {def ? formatMetricValue(def, row.values[c]) : String(row.values[c] ?? 'n/a')}
                      </td>
                    );
                  })}
                  <td className="screener-row-actions">
                    <Link to={withParams(search, { explain: String(row.permaticker) })}>
                      Explain<span className="visually-hidden"> {row.ticker}</span>
                    </Link>
                    {data.signedIn ? (
                      <Form method="post" action="/watchlist" className="inline-form">
                        <input type="hidden" name="intent" value="add" />
                        <input type="hidden" name="permaticker" value={row.permaticker} />
                        <input type="hidden" name="redirect_to" value={pathWithSearch} />
                        <button type="submit" className="button button--link">
                          Add<span className="visually-hidden"> {row.ticker}</span> to watchlist
                        </button>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {r.pageCount > 1 ? (
        <nav aria-label="Result pages" className="pagination">
          {r.page > 1 ? <Link to={withParams(search, { page: String(r.page - 1) })}>Previous page</Link> : null}
          <span>
            Page {r.page} of {r.pageCount}
          </span>
          {r.page < r.pageCount ? <Link to={withParams(search, { page: String(r.page + 1) })}>Next page</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

export default function ScreenerPage() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  const search = location.search;
  // With JavaScript, results follow the form as it is edited: the edited screen loads
  // in the background and the address bar follows, while the form keeps focus. Without
  // JavaScript every change is a submit of the same GET form.
  const live = useFetcher<typeof loader>();
  const [liveSearch, setLiveSearch] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => {
    // A real navigation (a submit, a link) wins over a pending live edit.
    window.clearTimeout(timer.current);
    setLiveSearch(null);
  }, [search]);
  const view = liveSearch !== null && live.data ? live.data : data;
  const viewSearch = liveSearch ?? search;
  const pathWithSearch = location.pathname + viewSearch;
  const onEdit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      const query = `?${screenQueryFromForm(new FormData(form))}`;
      setLiveSearch(query);
      live.load(`/screener${query}`);
      window.history.replaceState(window.history.state, '', `/screener${query}`);
    }, 400);
  };
  const general = view.errors.filter((e) => !e.param.startsWith('r.'));
  return (
    <>
      <h1>Stock screener</h1>
      {data.saved ? (
        <p>
          Saved screen: <strong>{data.saved.name}</strong> · <Link to="/screener/manage">Saved screeners</Link>
        </p>
      ) : null}
      <nav aria-label="Preset screens" className="screener-presets">
        <span>Start from a preset:</span>
        <ul>
          {PRESETS.map((p) => (
            <li key={p.id}>
              <Link to={`/screener?preset=${p.id}`} title={p.description}>
                {p.name}
              </Link>
            </li>
          ))}
          <li>
            <Link to="/screener">Clear</Link>
          </li>
        </ul>
      </nav>
      {view.errors.length > 0 ? (
        <div className="form-errors" role="alert" id="screen-errors">
          <p>The screen has problems:</p>
          <ul>
            {view.errors.map((e, i) => (
              <li key={i}>{e.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {/* Keyed by the URL: after a (client-side) navigation every field shows the new screen. */}
      <Form
        key={search}
        method="get"
        action="/screener"
        className="screener-form"
        onChange={onEdit}
        onSubmit={() => window.clearTimeout(timer.current)}
        aria-describedby={general.length > 0 ? 'screen-errors' : undefined}
      >
        {/* First in the form: Enter in any field runs the screen (the first submit button wins). */}
        <button type="submit" name="run" value="1" className="button button--primary">
          Run screen
        </button>
        {data.saved ? <input type="hidden" name="saved" value={data.saved.id} /> : null}
        {data.screen.sort ? <input type="hidden" name="sort" value={`${data.screen.sort.key}:${data.screen.sort.dir}`} /> : null}
        <datalist id={METRIC_LIST_ID}>
          {METRICS.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </datalist>
        <UniverseFields data={data} />
        <RuleFields data={data} />
        <RankingAndColumns data={data} />
        <button type="submit" name="run" value="1" className="button button--primary">
          Run screen
        </button>
      </Form>
      <p className="visually-hidden" role="status" aria-live="polite">
        {live.state === 'loading' ? 'Updating results…' : ''}
      </p>
      {view.unavailable ? (
        <p className="notice" role="status">
          {view.unavailable}
        </p>
      ) : null}
      <Explanation data={view} search={viewSearch} />
      <Results data={view} search={viewSearch} pathWithSearch={pathWithSearch} />
    </>
  );
}

import { compactNumber as compact } from '~/services/screener/number-input';
import { COMPARE_OPS } from '~/services/screener/expression';
import { MetricInput, Select } from './fields';
import { metricLabel as label, type ScreenerView } from './view';

// The parts of the screener's GET form: the universe, the rules (each editable, each with its
// error, and one small form per rule kind to add another), the ranking, the extra columns, the
// limit and the as-of date. Every button submits the same GET form, so it works without JavaScript.
// The universe and the ranking/columns parts fold away (open when they hold something) to keep
// the panel short. Numbers take 1B, 300M or 5%; metrics their label or id.

type Data = Pick<ScreenerView, 'screen' | 'choices' | 'errors' | 'ruleTexts' | 'asOfParam'>;

export function UniverseFields({ data }: { data: Data }) {
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
  const changed =
    u.exchanges.length + u.sectors.length + u.industries.length > 0 ||
    u.marketCapMin !== null ||
    u.marketCapMax !== null ||
    u.includeDelisted ||
    data.errors.some((e) => e.param.startsWith('mcap') || e.param === 'universe');
  return (
    <details className="screener-fieldset screener-fold" open={changed}>
      <summary>Universe</summary>
      <div className="screener-grid">
        {multi('exchange', 'Exchanges (none = all)', data.choices.exchanges, u.exchanges)}
        {multi('sector', 'Sectors (none = all)', data.choices.sectors, u.sectors)}
        {multi('industry', 'Industries (none = all)', data.choices.industries, u.industries)}
        <div className="field">
          <label htmlFor="u-mcap-min">Market cap at least (USD)</label>
          <input
            id="u-mcap-min"
            name="mcap_min"
            inputMode="decimal"
            placeholder="e.g. 300M or 2B"
            defaultValue={u.marketCapMin === null ? '' : compact(u.marketCapMin)}
          />
        </div>
        <div className="field">
          <label htmlFor="u-mcap-max">Market cap at most (USD)</label>
          <input
            id="u-mcap-max"
            name="mcap_max"
            inputMode="decimal"
            placeholder="e.g. 300M or 2B"
            defaultValue={u.marketCapMax === null ? '' : compact(u.marketCapMax)}
          />
        </div>
        <div className="checkbox">
          <input id="u-delisted" name="delisted" type="checkbox" value="1" defaultChecked={u.includeDelisted} />
          <label htmlFor="u-delisted">Include securities delisted by the as-of date</label>
        </div>
      </div>
    </details>
  );
}

export function RuleFields({ data }: { data: Data }) {
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
              <input id="add-value" name="add_value" inputMode="decimal" placeholder="e.g. 15, 300M, 1B, 5%" />
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

export function RankingAndColumns({ data }: { data: Data }) {
  const s = data.screen;
  const open = s.ranking.length > 0 || s.columns.length > 0 || s.limit !== null || data.asOfParam !== '';
  return (
    <details className="screener-fieldset screener-fold" open={open}>
      <summary>Ranking, columns and date</summary>
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
            <label htmlFor="as-of">As of date (empty = latest)</label>
            <input id="as-of" name="as_of" type="date" defaultValue={data.asOfParam} />
          </div>
        </fieldset>
      </div>
    </details>
  );
}

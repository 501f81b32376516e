import { Form } from '@remix-run/react';
import { MODE_LABELS, MODES, type View } from '~/services/data-browser/data-browser';
import { MetricSelect } from './MetricSelect';

/** The view options of the data browser: a GET form, so the view stays in the URL. */
export function ViewOptions({ view, metricId, compare }: { view: Omit<View, 'permatickers'>; metricId: string; compare: number[] }) {
  return (
    <Form method="get" className="card browser-controls" aria-label="View options">
      {compare.length > 0 ? <input type="hidden" name="compare" value={compare.join(',')} /> : null}
      <div className="field">
        <label htmlFor="db-metric">Metric</label>
        <MetricSelect id="db-metric" name="metric_id" value={metricId} />
      </div>
      <fieldset>
        <legend>Scale</legend>
        {(['linear', 'log'] as const).map((s) => (
          <label key={s}>
            <input type="radio" name="scale" value={s} defaultChecked={view.scale === s} /> {s === 'linear' ? 'Linear' : 'Log'}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Values</legend>
        {MODES.map((m) => (
          <label key={m}>
            <input type="radio" name="mode" value={m} defaultChecked={view.mode === m} /> {MODE_LABELS[m]}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="db-from">From (YYYY-MM-DD)</label>
        <input id="db-from" name="from" defaultValue={view.from ?? ''} size={11} />
      </div>
      <div className="field">
        <label htmlFor="db-to">To (YYYY-MM-DD)</label>
        <input id="db-to" name="to" defaultValue={view.to ?? ''} size={11} />
      </div>
      <div className="field">
        <label htmlFor="db-as-of">As of (YYYY-MM-DD)</label>
        <input id="db-as-of" name="as_of" defaultValue={view.asOf ?? ''} size={11} />
      </div>
      <button type="submit" className="button">
        Apply
      </button>
    </Form>
  );
}

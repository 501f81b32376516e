import { METRICS } from '~/services/metrics/catalogue';

// Small labelled inputs of the screener form. Metric inputs share one datalist of every
// catalogue metric, so a browser suggests them as the user types, with or without JavaScript:
// the label is what gets filled in ("Market cap"), the id shows beside it; the server takes
// either and keeps the id in the screen's URL.

export const METRIC_LIST_ID = 'screener-metrics';

export function MetricSuggestions() {
  return (
    <datalist id={METRIC_LIST_ID}>
      {METRICS.map((m) => (
        <option key={m.id} value={m.label}>
          {m.id}
        </option>
      ))}
    </datalist>
  );
}

export function MetricInput({ id, name, text, defaultValue }: { id: string; name: string; text: string; defaultValue?: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>{text}</label>
      <input id={id} name={name} list={METRIC_LIST_ID} defaultValue={defaultValue} autoComplete="off" spellCheck={false} />
    </div>
  );
}

export function Select({
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

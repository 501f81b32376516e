// Small labelled inputs of the screener form. Metric inputs share one datalist of every
// catalogue metric (ids as values, labels shown), so a browser suggests them as the user types.

export const METRIC_LIST_ID = 'screener-metric-ids';

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

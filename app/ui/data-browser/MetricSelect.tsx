import { metricsByCategory } from '~/services/metrics/catalogue';

// The metric picker: one <select> with the catalogue grouped by category (works without JS).
export function MetricSelect({ id, name, value }: { id: string; name: string; value?: string }) {
  return (
    <select id={id} name={name} defaultValue={value ?? 'price'}>
      {metricsByCategory().map((g) => (
        <optgroup key={g.category} label={g.label}>
          {g.metrics.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}

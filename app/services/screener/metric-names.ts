import { getMetric, isMetricId, METRICS } from '../metrics/catalogue';

// Metrics as people name them in the screener's fields: by id (`market_cap`, what URLs and rule
// text keep) or by the label the suggestions show (`Market cap`), in any letter case.

const normal = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
const BY_LABEL = new Map(METRICS.map((m) => [normal(m.label), m.id]));

/** The metric id a typed name stands for, or null when it names none. */
export function metricIdOf(text: string): string | null {
  const t = text.trim();
  if (isMetricId(t)) return t;
  const lower = t.toLowerCase();
  if (isMetricId(lower)) return lower;
  return BY_LABEL.get(normal(t)) ?? null;
}

/** A typed name as the screen's text: the id for a known metric, else the text unchanged (its error shows). */
export function metricIdOrText(text: string): string {
  return metricIdOf(text) ?? text.trim();
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** The closest metric to a misspelt name ("revnue_ttm" → revenue_ttm), if one is close enough. */
export function closestMetric(text: string): { id: string; label: string } | null {
  const t = normal(text).slice(0, 64);
  if (t === '') return null;
  let best: { id: string; d: number } | null = null;
  for (const m of METRICS) {
    const d = Math.min(distance(t, m.id), distance(t, normal(m.label)));
    if (!best || d < best.d) best = { id: m.id, d };
  }
  if (!best || best.d > Math.max(2, Math.floor(t.length / 4))) return null;
  return { id: best.id, label: getMetric(best.id)?.label ?? best.id };
}

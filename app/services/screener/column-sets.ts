import { badRequest } from '../http/errors';
import { closestMetric, metricIdOf } from './metric-names';
import { MAX_COLUMNS } from './model';

// Saved column sets of the screener's results: a named list of metric columns a user picks from
// a select. The rules here are shared by the JSON API and the page forms: a name of 1–100
// characters, 1–MAX_COLUMNS known metrics (by id or label, kept as ids), each once.

export const MAX_COLUMN_SET_NAME = 100;
export const MAX_COLUMN_SETS_PER_USER = 100;
export { MAX_COLUMNS as MAX_COLUMN_SET_COLUMNS };

/** A typed name, trimmed; 400 with the reason when empty or too long. */
export function columnSetNameOrThrow(raw: string): string {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (name === '') throw badRequest('Enter a name for the column set.', { name: ['Enter a name'] });
  if (name.length > MAX_COLUMN_SET_NAME) {
    const message = `A column set name has at most ${MAX_COLUMN_SET_NAME} characters (got ${name.length}).`;
    throw badRequest(message, { name: [message] });
  }
  return name;
}

/**
 * Metric columns as ids, in order, each once; 400 naming the problem for an empty list, too many
 * columns or a name that is no metric (with the closest metric when there is one).
 */
export function columnSetColumnsOrThrow(raw: readonly string[]): string[] {
  if (raw.length > MAX_COLUMNS) {
    const message = `A column set has at most ${MAX_COLUMNS} columns (got ${raw.length}).`;
    throw badRequest(message, { columns: [message] });
  }
  const out: string[] = [];
  const unknown: string[] = [];
  for (const text of raw) {
    const id = metricIdOf(text);
    if (id === null) unknown.push(text.trim());
    else if (!out.includes(id)) out.push(id);
  }
  if (unknown.length > 0) {
    const first = unknown[0].slice(0, 64);
    const near = closestMetric(first);
    const more = unknown.length > 1 ? ` (and ${unknown.length - 1} more)` : '';
    const message = `Unknown metric "${first}"${more}${near ? `: did you mean ${near.id} (${near.label})?` : '.'}`;
    throw badRequest(message, { columns: [message] });
  }
  if (out.length === 0) throw badRequest('Choose at least one column.', { columns: ['Choose at least one column.'] });
  return out;
}

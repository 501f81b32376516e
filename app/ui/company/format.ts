import { formatByFormat } from '~/services/metrics/format';
import type { MetricFormat } from '~/services/metrics/catalogue';

// Shorthands for the company pages; all go through format.ts (no float surprises, null ⇒ n/a).
export const fmt = (format: MetricFormat) => (v: number | null | undefined) => formatByFormat(format, v ?? null);
export const money = fmt('currency');
export const bigMoney = fmt('large_currency');
export const percent = fmt('percent');
export const ratio = fmt('ratio');
export const shares = fmt('shares');

/** Statement values: per-share in dollars and cents, share counts compact, money compact. */
export function statementValue(unit: string, v: number | null | undefined): string {
  if (unit === 'USD/shares') return money(v);
  if (unit === 'shares') return shares(v);
  return bigMoney(v);
}

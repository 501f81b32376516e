import { fromEpochDay } from '../dates';
import { NOT_AVAILABLE, roundForExport } from '../http/numbers';
import type { MetricDefinition, MetricFormat } from './catalogue';

// Display formatting for metric values. Everything goes through Intl.NumberFormat with a fixed
// number of fraction digits, so binary floating-point noise (0.07 × 100 = 7.000000000000001)
// never reaches the page, and a rounded "-0" never shows.

const cache = new Map<string, Intl.NumberFormat>();
function nf(minimumFractionDigits: number, maximumFractionDigits: number, grouping = true): Intl.NumberFormat {
  const key = `${minimumFractionDigits}:${maximumFractionDigits}:${grouping}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      minimumFractionDigits,
      maximumFractionDigits,
      useGrouping: grouping,
    });
    cache.set(key, f);
  }
  return f;
}

// A page formats the same values on every request (a chart's table of a year of prices, its
// cache key): the texts are kept per digits setting, a bounded number of values each.
const texts = new Map<number, Map<number, string>>();
const TEXTS_PER_SETTING = 20_000;

/** Formats with fixed digits; a value that rounds to zero loses its minus sign. */
function fixed(value: number, digits: number, minDigits = digits): string {
  const setting = Number.isInteger(digits) && Number.isInteger(minDigits) && digits >= 0 && digits < 64 ? minDigits * 64 + digits : null;
  let kept = setting === null ? undefined : texts.get(setting);
  if (setting !== null && !kept) texts.set(setting, (kept = new Map()));
  let text = kept?.get(value);
  if (text === undefined) {
    text = nf(minDigits, digits).format(value);
    if (/^-[0.,]*$/.test(text)) text = text.slice(1);
    if (kept) {
      if (kept.size >= TEXTS_PER_SETTING) kept.clear();
      kept.set(value, text);
    }
  }
  return text;
}

const SCALES: [number, string][] = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/** 1234567 → "1.23M"; picks the unit after rounding so 999,999,999 shows as "1.00B", not "1,000.00M". */
export function compact(value: number, digits = 2): string {
  const abs = Math.abs(value);
  for (let i = 0; i < SCALES.length; i++) {
    const [scale, suffix] = SCALES[i];
    if (abs >= scale) {
      const rounded = Number((abs / scale).toFixed(digits));
      if (rounded >= 1000 && i > 0) {
        const [up, upSuffix] = SCALES[i - 1];
        return `${value < 0 ? '-' : ''}${fixed(abs / up, digits)}${upSuffix}`;
      }
      return `${value < 0 ? '-' : ''}${fixed(rounded, digits)}${suffix}`;
    }
  }
  const rounded = Number(abs.toFixed(digits));
  if (rounded >= 1000) return `${value < 0 ? '-' : ''}${fixed(abs / 1e3, digits)}K`;
  return fixed(value, digits);
}

function withSign(text: string, negative: boolean): string {
  return negative && text !== '0' && !/^[0.,]+$/.test(text) ? `-${text}` : text;
}

export function formatByFormat(format: MetricFormat, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NOT_AVAILABLE;
  switch (format) {
    case 'currency': {
      const text = fixed(Math.abs(value), 2);
      return withSign(`$${text}`, value < 0 && text !== '0.00');
    }
    case 'large_currency': {
      const text = compact(Math.abs(value));
      return withSign(`$${text}`, value < 0 && !/^0(\.0+)?$/.test(text));
    }
    case 'percent':
      // value is a fraction; scale by shifting the decimal in the string, not by × 100.
      return `${fixed(Number(`${value}e2`), 2)}%`;
    case 'ratio':
      return fixed(value, 2);
    case 'number':
    case 'score':
      return fixed(value, 2);
    case 'integer':
      return fixed(value, 0);
    case 'shares':
      return compact(value);
    case 'days':
      return `${fixed(value, 0)} d`;
    case 'years':
      return `${fixed(value, 0)} y`;
    case 'date':
      return Number.isInteger(value) ? fromEpochDay(value) : NOT_AVAILABLE;
  }
}

export function formatMetricValue(metric: Pick<MetricDefinition, 'format'>, value: number | null | undefined): string {
  return formatByFormat(metric.format, value);
}

/** A metric's column title in a download: percentages say so, because their values are percents. */
export function exportMetricHeader(metric: Pick<MetricDefinition, 'label' | 'format'>): string {
  return metric.format === 'percent' ? `${metric.label} (%)` : metric.label;
}

/**
 * A metric value for a download: the precision the page shows (2 decimals; whole numbers for
 * counts, shares and days; full dollars-and-cents for large amounts the page abbreviates),
 * percentages as percents (12.34, not 0.1234), dates as YYYY-MM-DD.
 */
export function exportMetricValue(metric: Pick<MetricDefinition, 'format'>, value: number | null | undefined): number | string | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  switch (metric.format) {
    case 'percent':
      return roundForExport(Number(`${value.toPrecision(15)}e2`), 2);
    case 'integer':
    case 'shares':
    case 'days':
    case 'years':
      return roundForExport(value, 0);
    case 'date':
      return Number.isInteger(value) ? fromEpochDay(value) : null;
    default:
      return roundForExport(value, 2);
  }
}

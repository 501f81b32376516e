import { z } from 'zod';
import { isIsoDate, type IsoDate } from '../dates';
import { AsOfField } from '../http/as-of';

// The data browser's view, as URL parameters (stable, shareable, works without JavaScript):
// /data-browser/{permaticker}/{metric}?compare=1,2&scale=log&mode=first_reported&from=&to=&as_of=

export const MAX_COMPANIES = 10;
export const MODES = ['latest', 'first_reported', 'point_in_time'] as const;
export type BrowserMode = (typeof MODES)[number];
export const MODE_LABELS: Record<BrowserMode, string> = {
  latest: 'Latest restated',
  first_reported: 'As first reported',
  point_in_time: 'Point in time (as known each day)',
};

const isoDate = z.string().refine(isIsoDate, 'Must be a date as YYYY-MM-DD.');
const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v);

export const ViewSchema = z
  .object({
    compare: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
    add: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
    scale: z.preprocess(emptyToUndefined, z.enum(['linear', 'log']).default('linear')),
    mode: z.preprocess(emptyToUndefined, z.enum(MODES).default('latest')),
    from: z.preprocess(emptyToUndefined, isoDate.optional()),
    to: z.preprocess(emptyToUndefined, isoDate.optional()),
    as_of: AsOfField,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: '`from` must not be after `to`.', path: ['from'] });

export type View = {
  permatickers: number[];
  scale: 'linear' | 'log';
  mode: BrowserMode;
  from: IsoDate | null;
  to: IsoDate | null;
  asOf: IsoDate | null;
};

export type ViewParse =
  | { ok: true; view: Omit<View, 'permatickers'> & { compare: number[]; add: string | null } }
  | { ok: false; errors: Record<string, string[]> };

/** Parses the query; `compare` is a comma-separated list of permatickers (duplicates dropped). */
export function parseView(params: URLSearchParams): ViewParse {
  const parsed = ViewSchema.safeParse(Object.fromEntries(params));
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const i of parsed.error.issues) (errors[i.path.join('.') || '_'] ??= []).push(i.message);
    return { ok: false, errors };
  }
  const q = parsed.data;
  const compare: number[] = [];
  for (const part of (q.compare ?? '').split(',')) {
    const t = part.trim();
    if (t === '') continue;
    if (!/^[1-9]\d{0,8}$/.test(t))
      return { ok: false, errors: { compare: ['Companies to compare are permatickers separated by commas.'] } };
    const n = Number(t);
    if (!compare.includes(n)) compare.push(n);
  }
  return {
    ok: true,
    view: { compare, add: q.add ?? null, scale: q.scale, mode: q.mode, from: q.from ?? null, to: q.to ?? null, asOf: q.as_of ?? null },
  };
}

/** The main company first, then the compared ones, at most MAX_COMPANIES. */
export function companyList(main: number, compare: readonly number[]): { list: number[]; dropped: number } {
  const list = [main];
  for (const p of compare) if (!list.includes(p)) list.push(p);
  return { list: list.slice(0, MAX_COMPANIES), dropped: Math.max(0, list.length - MAX_COMPANIES) };
}

/** Query string of a view (the stable URL); defaults are left out so URLs stay short. */
export function viewQuery(v: {
  compare: readonly number[];
  scale: string;
  mode: string;
  from: IsoDate | null;
  to: IsoDate | null;
  asOf: IsoDate | null;
}): string {
  const p = new URLSearchParams();
  if (v.compare.length > 0) p.set('compare', v.compare.join(','));
  if (v.scale !== 'linear') p.set('scale', v.scale);
  if (v.mode !== 'latest') p.set('mode', v.mode);
  if (v.from) p.set('from', v.from);
  if (v.to) p.set('to', v.to);
  if (v.asOf) p.set('as_of', v.asOf);
  const s = p.toString();
  return s ? `?${s}` : '';
}

export type SeriesInput = {
  permaticker: number;
  ticker: string;
  points: { date: IsoDate; value: number | null; filed: IsoDate | null; accession: string | null }[];
};
export type TableRow = { date: IsoDate; values: (number | null)[] };

type SeriesPointInput = SeriesInput['points'][number];

/** Per date on which any company's value changed, each company's point in force on it (null before its first). */
function pointsInForce(series: readonly SeriesInput[]): { date: IsoDate; points: (SeriesPointInput | null)[] }[] {
  const dates = [...new Set(series.flatMap((s) => s.points.map((p) => p.date)))].sort();
  const cursors = series.map(() => -1);
  return dates.map((date) => ({
    date,
    points: series.map((s, k) => {
      while (cursors[k] + 1 < s.points.length && s.points[cursors[k] + 1].date <= date) cursors[k]++;
      return cursors[k] >= 0 ? s.points[cursors[k]] : null;
    }),
  }));
}

/**
 * One row per date on which any company's value changed, each column carrying the company's
 * value in force on that date (the last known one), so a quarterly metric compared with another
 * company's different reporting calendar still reads across.
 */
export function alignSeries(series: readonly SeriesInput[]): TableRow[] {
  return pointsInForce(series).map((r) => ({ date: r.date, values: r.points.map((p) => p?.value ?? null) }));
}

/** The filing each value of alignSeries' rows rests on (same rows and columns); null for price-only values. */
export type ValueSource = { filed: IsoDate; accession: string | null };
export function alignSources(series: readonly SeriesInput[]): (ValueSource | null)[][] {
  return pointsInForce(series).map((r) => r.points.map((p) => (p?.filed ? { filed: p.filed, accession: p.accession } : null)));
}

import { isIsoDate, type IsoDate } from '../dates';

// The `?as_of=YYYY-MM-DD` parameter every company and market page accepts: every page can be
// read as of a past date. Missing or empty means "latest"; anything else must be a real date.

export type AsOfParse = { ok: true; asOf: IsoDate | null } | { ok: false; message: string };

export const AS_OF_MESSAGE = 'The as-of date must be a real date written YYYY-MM-DD, for example 2024-06-28.';

export function parseAsOf(raw: string | null | undefined): AsOfParse {
  if (raw === null || raw === undefined || raw.trim() === '') return { ok: true, asOf: null };
  const v = raw.trim();
  if (!isIsoDate(v) || v < '1900-01-01') return { ok: false, message: AS_OF_MESSAGE };
  return { ok: true, asOf: v };
}

/** Query string carrying the as-of date on to another tab (empty for latest). */
export function asOfQuery(asOf: IsoDate | null, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  if (asOf) p.set('as_of', asOf);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

import { isIsoDate, type IsoDate } from '../dates';
import { z } from 'zod';
import { unprocessable } from './errors';

// The as-of date every page, CSV and API call accepts (point in time: what was known that
// day), under one name, `as_of`, parsed by one rule: missing, empty or "latest" means the latest
// data; anything else must be a real calendar date written YYYY-MM-DD.
//
// The screener once called it `asof`; its old links still work: pages redirect them to the
// same address with `as_of` (oldAsOfRedirect), and CSV downloads read either name.

export const AS_OF_PARAM = 'as_of';
export const OLD_AS_OF_PARAM = 'asof';

export type AsOfParse = { ok: true; asOf: IsoDate | null } | { ok: false; message: string };

export const AS_OF_MESSAGE = 'The as-of date must be a real date written YYYY-MM-DD, for example 2024-06-28.';

export function parseAsOf(raw: string | null | undefined): AsOfParse {
  if (raw === null || raw === undefined) return { ok: true, asOf: null };
  const v = raw.trim();
  if (v === '' || v === 'latest') return { ok: true, asOf: null };
  if (!isIsoDate(v) || v < '1900-01-01') return { ok: false, message: AS_OF_MESSAGE };
  return { ok: true, asOf: v };
}

/** `as_of` as a field of a zod query schema: the same rule; latest is undefined. */
export const AsOfField = z
  .string()
  .max(40)
  .refine((v) => parseAsOf(v).ok, AS_OF_MESSAGE)
  .transform((v) => parseAsOf(v) as { ok: true; asOf: IsoDate | null })
  .transform((p) => p.asOf ?? undefined)
  .optional();

/** The as-of date of a query string, under its name or the old one. */
export function asOfParam(search: URLSearchParams): string | null {
  return search.get(AS_OF_PARAM) ?? search.get(OLD_AS_OF_PARAM);
}

/** For the JSON API and downloads: the date, or a 422 naming the `as_of` field. */
export function asOfOrThrow(raw: string | null | undefined): IsoDate | null {
  const parsed = parseAsOf(raw);
  if (!parsed.ok) throw unprocessable(parsed.message, { [AS_OF_PARAM]: [parsed.message] });
  return parsed.asOf;
}

/**
 * The address to send an old `?asof=` link to (same path and parameters, `as_of` instead), or
 * null when the address does not use the old name.
 */
export function oldAsOfRedirect(url: URL): string | null {
  if (!url.searchParams.has(OLD_AS_OF_PARAM)) return null;
  const params = new URLSearchParams();
  for (const [k, v] of url.searchParams) {
    if (k === OLD_AS_OF_PARAM) {
      if (!url.searchParams.has(AS_OF_PARAM)) params.append(AS_OF_PARAM, v);
    } else params.append(k, v);
  }
  const qs = params.toString();
  return `${url.pathname}${qs ? `?${qs}` : ''}`;
}

/** Query string carrying the as-of date on to another tab (empty for latest). */
export function asOfQuery(asOf: IsoDate | null, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  if (asOf) p.set(AS_OF_PARAM, asOf);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

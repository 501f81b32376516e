import type { IsoDate } from '../../dates';

// A security as the market store knows it: the permaticker is its identity (tickers are recycled
// and change), the rest describes it. Every other view of a security — the importers' records,
// the screener's metadata, the company pages and the JSON API — is picked from this one type.
// TypeScript code spells the fields in camelCase; the store's columns and the JSON API in
// snake_case (SecurityColumns), mapped by the compiler, so the two cannot drift apart.

export type Security = {
  permaticker: number;
  ticker: string;
  name: string;
  exchange: string | null;
  /** Sharadar's category ("Domestic Common Stock", "ADR Common Stock", …). */
  category: string | null;
  sector: string | null;
  industry: string | null;
  cik: string | null;
  currency: string;
  description: string | null;
  /** First and last day with a stored price (the listing span as the data shows it). */
  firstPriceDate: IsoDate | null;
  lastPriceDate: IsoDate | null;
  /** Delisted by now (today); whether it was delisted *as of* a date comes from lastPriceDate. */
  isDelisted: boolean;
  /** Part of the fictional demo universe: no filing on the SEC site to link to. */
  isDemo: boolean;
  /** The importer that wrote it: demo, sec, sharadar, prices, … */
  source: string;
};

type SnakeCase<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${SnakeCase<Rest>}`
  : S;

/** `T` with its keys in snake_case, e.g. isDelisted → is_delisted. */
export type SnakeCased<T> = { [K in keyof T as K extends string ? SnakeCase<K> : K]: T[K] };

/** A security as the `securities` table's columns and the JSON API spell it. */
export type SecurityColumns = SnakeCased<Security>;

import { describe, expectTypeOf, it } from 'vitest';
import type { IsoDate } from '../../dates';
import type { SecurityColumns, SnakeCased } from './security';

// Checked by the compiler (npm run typecheck): the snake_case view of a security is exactly the
// `securities` table's columns, which the JSON API answers with.

describe('SecurityColumns', () => {
  it('spells every field as the securities table does', () => {
    expectTypeOf<SecurityColumns>().toEqualTypeOf<{
      permaticker: number;
      ticker: string;
      name: string;
      exchange: string | null;
      category: string | null;
      sector: string | null;
      industry: string | null;
      cik: string | null;
      currency: string;
      description: string | null;
      first_price_date: IsoDate | null;
      last_price_date: IsoDate | null;
      is_delisted: boolean;
      is_demo: boolean;
      source: string;
    }>();
  });

  it('maps camelCase keys with digits and runs of words', () => {
    expectTypeOf<SnakeCased<{ sma200Distance: number; return1y: number; a: 1 }>>().toEqualTypeOf<{
      sma200_distance: number;
      return1y: number;
      a: 1;
    }>();
  });
});

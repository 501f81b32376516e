import { DuckDBDateValue, DuckDBInstance } from '@duckdb/node-api';
import { toEpochDay } from '../../dates';
import { MARKET_DDL } from '../../market/store/schema';
import type { SyntheticSecurity } from './synthetic-universe';

// Writes a synthetic universe into a fresh DuckDB market file with the store's DDL, for the
// snapshot tests and the benchmark (the real writer belongs to the importers).

export async function writeFixtureStore(file: string, securities: readonly SyntheticSecurity[]): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  try {
    await conn.run(MARKET_DDL);
    const sec = await conn.createAppender('securities');
    const prices = await conn.createAppender('prices');
    const actions = await conn.createAppender('corporate_actions');
    const facts = await conn.createAppender('facts');
    const date = (d: number) => new DuckDBDateValue(d);
    const nullable = (a: typeof facts, v: string | null) => (v === null ? a.appendNull() : a.appendVarchar(v));
    for (const s of securities) {
      const n = s.dates.length;
      sec.appendInteger(s.permaticker);
      sec.appendVarchar(s.ticker);
      sec.appendVarchar(`Synthetic ${s.ticker}`);
      for (const v of ['SYN', 'Domestic Common Stock', 'Synthetic', 'Synthetic', null]) nullable(sec, v);
      sec.appendVarchar('USD');
      sec.appendNull();
      if (n > 0) sec.appendDate(date(s.dates[0]));
      else sec.appendNull();
      if (n > 0) sec.appendDate(date(s.dates[n - 1]));
      else sec.appendNull();
      sec.appendBoolean(s.delisted);
      sec.appendBoolean(true);
      sec.appendVarchar('fixture');
      sec.endRow();
      for (let k = 0; k < n; k++) {
        prices.appendInteger(s.permaticker);
        prices.appendDate(date(s.dates[k]));
        prices.appendNull();
        prices.appendNull();
        prices.appendNull();
        prices.appendDouble(s.close[k]);
        prices.appendDouble(s.volume[k]);
        prices.appendDouble(s.closeUnadj[k]);
        prices.appendDouble(s.tri[k]);
        prices.endRow();
      }
      for (let k = 0; k < s.dividends.exDate.length; k++) {
        actions.appendInteger(s.permaticker);
        actions.appendDate(date(s.dividends.exDate[k]));
        actions.appendVarchar('dividend');
        actions.appendDouble(s.dividends.amount[k]);
        actions.appendNull();
        actions.appendVarchar('fixture');
        actions.endRow();
      }
      for (const sp of s.splits) {
        actions.appendInteger(s.permaticker);
        actions.appendDate(date(sp.day));
        actions.appendVarchar('split');
        actions.appendDouble(sp.ratio);
        actions.appendNull();
        actions.appendVarchar('fixture');
        actions.endRow();
      }
      for (const f of s.factRows) {
        facts.appendInteger(s.permaticker);
        facts.appendVarchar(f.concept);
        facts.appendDouble(f.value);
        facts.appendVarchar(f.concept.startsWith('eps') ? 'USD/shares' : f.concept.startsWith('shares') ? 'shares' : 'USD');
        if (f.periodStart) facts.appendDate(date(toEpochDay(f.periodStart)));
        else facts.appendNull();
        facts.appendDate(date(toEpochDay(f.periodEnd)));
        facts.appendInteger(Number(f.periodEnd.slice(0, 4)));
        nullable(facts, f.fiscalPeriod);
        nullable(facts, f.fiscalPeriod === 'FY' ? '10-K' : '10-Q');
        facts.appendDate(date(toEpochDay(f.filed)));
        nullable(facts, f.accession);
        facts.appendVarchar('fixture');
        facts.appendNull();
        facts.endRow();
      }
    }
    for (const a of [sec, prices, actions, facts]) a.closeSync();
    await conn.run('CHECKPOINT');
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

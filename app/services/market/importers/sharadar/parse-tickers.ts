import type { SecurityRecord } from '../../store/records';
import { readCsvTable } from '../csv-table';
import { REQUIRED_COLUMNS } from './tables';

// TICKERS lists each security once per Sharadar table (SF1, SEP, SFP...). The permaticker is the
// identity; a security's SEP row is preferred because it describes the traded listing.

export type SharadarTickers = {
  securities: SecurityRecord[];
  /** Current ticker → permaticker, then former tickers (relatedtickers) for old action rows. */
  byTicker: Map<string, number>;
  byRelatedTicker: Map<string, number>;
};

const TABLE_PREFERENCE = ['SEP', 'SF1', 'SFP'];

export function parseTickers(text: string, file: string): SharadarTickers {
  const t = readCsvTable(text, file, REQUIRED_COLUMNS.TICKERS);
  const chosen = new Map<number, { rank: number; record: SecurityRecord; related: string[] }>();
  for (const row of t.rows) {
    const permaticker = t.number(row, 'permaticker');
    if (permaticker === null || !Number.isInteger(permaticker) || permaticker <= 0)
      t.fail(row, `permaticker "${t.text(row, 'permaticker')}" is not a positive integer`);
    const ticker = t.text(row, 'ticker').toUpperCase();
    if (ticker === '') t.fail(row, 'empty ticker');
    const delisted = t.text(row, 'isdelisted').toUpperCase();
    if (delisted !== 'Y' && delisted !== 'N') t.fail(row, `isdelisted "${t.text(row, 'isdelisted')}" is not Y or N`);
    const firstPriceDate = t.date(row, 'firstpricedate');
    const lastPriceDate = t.date(row, 'lastpricedate');
    if (firstPriceDate && lastPriceDate && lastPriceDate < firstPriceDate)
      t.fail(row, `lastpricedate ${lastPriceDate} is before firstpricedate ${firstPriceDate}`);
    const cik = /CIK=0*(\d+)/i.exec(t.text(row, 'secfilings'))?.[1] ?? null;
    const record: SecurityRecord = {
      permaticker: permaticker!,
      ticker,
      name: t.text(row, 'name') || ticker,
      exchange: t.text(row, 'exchange') || null,
      category: t.text(row, 'category') || null,
      sector: t.text(row, 'sector') || null,
      industry: t.text(row, 'industry') || null,
      cik: cik ? cik.padStart(10, '0') : null,
      currency: t.text(row, 'currency') || 'USD',
      firstPriceDate,
      lastPriceDate,
      isDelisted: delisted === 'Y',
      source: 'sharadar',
    };
    const rank = TABLE_PREFERENCE.indexOf(t.text(row, 'table').toUpperCase());
    const score = rank < 0 ? TABLE_PREFERENCE.length : rank;
    const current = chosen.get(record.permaticker);
    const related = t.text(row, 'relatedtickers').split(/\s+/).filter(Boolean);
    if (!current || score < current.rank) chosen.set(record.permaticker, { rank: score, record, related });
  }
  const byTicker = new Map<string, number>();
  const byRelatedTicker = new Map<string, number>();
  const sorted = [...chosen.values()].sort((a, b) => a.record.permaticker - b.record.permaticker);
  for (const { record, related } of sorted) {
    // A recycled ticker belongs to the listing that is still trading.
    const other = byTicker.get(record.ticker);
    if (other === undefined || !record.isDelisted) byTicker.set(record.ticker, record.permaticker);
    for (const r of related) if (!byRelatedTicker.has(r.toUpperCase())) byRelatedTicker.set(r.toUpperCase(), record.permaticker);
  }
  return { securities: sorted.map((c) => c.record), byTicker, byRelatedTicker };
}

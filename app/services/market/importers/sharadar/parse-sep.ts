import type { PriceRecord } from '../../store/records';
import { readCsvTable } from '../csv-table';
import { REQUIRED_COLUMNS } from './tables';

// SEP daily prices: open..close and volume are split-adjusted, closeunadj is as traded and
// closeadj adds dividends, so it serves directly as the total-return index.

export function parseSep(text: string, file: string, byTicker: Map<string, number>): PriceRecord[] {
  const t = readCsvTable(text, file, REQUIRED_COLUMNS.SEP);
  const out: PriceRecord[] = [];
  const seen = new Set<string>();
  for (const row of t.rows) {
    const ticker = t.text(row, 'ticker').toUpperCase();
    const permaticker = byTicker.get(ticker);
    if (permaticker === undefined) t.fail(row, `unknown ticker "${ticker}" (not in TICKERS)`);
    const date = t.date(row, 'date', true);
    const key = `${ticker}|${date}`;
    if (seen.has(key)) t.fail(row, `${ticker} ${date} appears twice`);
    seen.add(key);
    const close = t.number(row, 'close');
    if (close === null) t.fail(row, 'close is empty');
    const bar: PriceRecord = {
      permaticker: permaticker!,
      date,
      open: t.number(row, 'open'),
      high: t.number(row, 'high'),
      low: t.number(row, 'low'),
      close: close!,
      volume: t.number(row, 'volume'),
      closeUnadj: t.number(row, 'closeunadj'),
      tri: t.number(row, 'closeadj'),
    };
    for (const key of ['open', 'high', 'low', 'close', 'closeUnadj', 'tri'] as const) {
      const v = bar[key];
      if (v !== null && v <= 0) t.fail(row, `${key} ${v} is not a positive price`);
    }
    if (bar.high !== null && bar.low !== null && bar.high < bar.low) t.fail(row, `high ${bar.high} is below low ${bar.low}`);
    if (bar.volume !== null && bar.volume < 0) t.fail(row, `volume ${bar.volume} is negative`);
    out.push(bar);
  }
  return out;
}

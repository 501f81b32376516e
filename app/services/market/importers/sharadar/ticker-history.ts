import { addDays, type IsoDate } from '../../../dates';
import type { CorporateActionRecord, SecurityRecord, TickerPeriodRecord } from '../../store/records';

/**
 * Ticker periods of one security from its ticker-change actions ("from OLD" on the change date):
 * each former ticker ran until the day before the change, the current one from the last change.
 */
export function tickerHistory(security: SecurityRecord, actions: CorporateActionRecord[]): TickerPeriodRecord[] {
  const changes = actions
    .filter((a) => a.action === 'ticker_change' && a.detail?.startsWith('from '))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
  const out: TickerPeriodRecord[] = [];
  let start: IsoDate | null = security.firstPriceDate;
  for (const change of changes) {
    out.push({
      permaticker: security.permaticker,
      ticker: change.detail!.slice(5).toUpperCase(),
      startDate: start,
      endDate: addDays(change.date, -1),
    });
    start = change.date;
  }
  out.push({
    permaticker: security.permaticker,
    ticker: security.ticker,
    startDate: start,
    endDate: security.isDelisted ? security.lastPriceDate : null,
  });
  return out;
}

// Sharadar's bulk tables, told apart by their header (the vendor's column names, documented at
// data.nasdaq.com/databases/SFA): TICKERS, SEP (daily prices), SF1 (fundamentals), ACTIONS.

export type SharadarTable = 'TICKERS' | 'SEP' | 'SF1' | 'ACTIONS';

export const REQUIRED_COLUMNS: Record<SharadarTable, readonly string[]> = {
  TICKERS: ['table', 'permaticker', 'ticker', 'name', 'exchange', 'isdelisted'],
  SEP: ['ticker', 'date', 'open', 'high', 'low', 'close', 'volume', 'closeadj', 'closeunadj'],
  SF1: ['ticker', 'dimension', 'calendardate', 'datekey', 'reportperiod'],
  ACTIONS: ['date', 'action', 'ticker', 'value', 'contraticker'],
};

export function tableOf(header: string[]): SharadarTable | null {
  const has = (c: string) => header.includes(c);
  if (has('permaticker') && has('isdelisted')) return 'TICKERS';
  if (has('dimension') && has('datekey')) return 'SF1';
  if (has('action') && has('contraticker')) return 'ACTIONS';
  if (has('closeunadj') && has('closeadj')) return 'SEP';
  return null;
}

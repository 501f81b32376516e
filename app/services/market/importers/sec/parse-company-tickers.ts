import { ImportFileError } from '../../store/records';

// SEC's ticker lists: company_tickers.json (`{"0":{"cik_str":320193,"ticker":"AAPL","title":...}}`)
// and company_tickers_exchange.json (`{"fields":["cik","name","ticker","exchange"],"data":[...]}`).
// A CIK may list several tickers (share classes); the first listed is the SEC's primary one.

export type TickerListing = { cik: string; ticker: string; name: string; exchange: string | null };

export function isCompanyTickers(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  if ('fields' in raw && 'data' in raw) return true;
  const first = Object.values(raw)[0];
  return typeof first === 'object' && first !== null && 'cik_str' in first && 'ticker' in first;
}

export function parseCompanyTickers(raw: unknown, file: string): TickerListing[] {
  if (!isCompanyTickers(raw)) throw new ImportFileError(file, null, 'not an SEC company_tickers file');
  const out: TickerListing[] = [];
  const o = raw as Record<string, unknown>;
  if ('fields' in o) {
    const fields = o.fields as unknown[];
    const at = (name: string) => fields.indexOf(name);
    const [ci, ni, ti, ei] = [at('cik'), at('name'), at('ticker'), at('exchange')];
    if (ci < 0 || ti < 0) throw new ImportFileError(file, null, 'company_tickers_exchange: "fields" lacks cik or ticker');
    (o.data as unknown[]).forEach((row, i) => {
      if (!Array.isArray(row)) throw new ImportFileError(file, null, `data[${i}] is not a list`);
      out.push(listing(row[ci], row[ti], ni >= 0 ? row[ni] : '', ei >= 0 ? row[ei] : null, file, `data[${i}]`));
    });
  } else {
    for (const [key, row] of Object.entries(o)) {
      const r = row as Record<string, unknown>;
      out.push(listing(r.cik_str, r.ticker, r.title, null, file, key));
    }
  }
  return out;
}

function listing(cik: unknown, ticker: unknown, name: unknown, exchange: unknown, file: string, where: string): TickerListing {
  if (
    (typeof cik !== 'number' && typeof cik !== 'string') ||
    !/^\d{1,10}$/.test(String(cik)) ||
    typeof ticker !== 'string' ||
    ticker === ''
  ) {
    throw new ImportFileError(file, null, `${where}: needs a numeric CIK and a ticker`);
  }
  return {
    cik: String(cik).padStart(10, '0'),
    ticker: ticker.toUpperCase(),
    name: typeof name === 'string' ? name : '',
    exchange: typeof exchange === 'string' && exchange !== '' ? exchange : null,
  };
}

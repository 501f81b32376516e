import { ImportFileError } from '../../store/records';
import { normaliseCik } from './parse-companyfacts';
import { sectorForSic } from './sic-sector';

// The submissions document (data.sec.gov/submissions/CIK##########.json) describes the filer:
// current tickers and exchanges, SIC code and name. Overflow pages (`-submissions-001.json`)
// hold only older filings and carry no profile, so they are recognised and skipped.

export type SecProfile = {
  cik: string;
  name: string;
  ticker: string | null;
  exchange: string | null;
  sic: number | null;
  sector: string | null;
  industry: string | null;
  /** No current ticker or exchange: the SEC lists none for delisted filers. */
  isDelisted: boolean;
  /** Filing date of the newest periodic report (10-K, 10-Q, 20-F, 40-F and amendments) among the recent filings. */
  lastReportFiled: string | null;
};

// The forms whose XBRL financial statements feed companyfacts; 8-Ks, proxies and ownership forms
// add nothing the store keeps.
const REPORT_FORM = /^(10-K|10-Q|10-KT|10-QT|20-F|40-F)(\/A)?$/;

function lastReportFiled(filings: unknown): string | null {
  const recent = typeof filings === 'object' && filings !== null ? (filings as Record<string, unknown>).recent : null;
  if (typeof recent !== 'object' || recent === null) return null;
  const { form, filingDate } = recent as Record<string, unknown>;
  if (!Array.isArray(form) || !Array.isArray(filingDate)) return null;
  let newest: string | null = null;
  form.forEach((f, i) => {
    const date = filingDate[i];
    if (typeof f === 'string' && REPORT_FORM.test(f) && typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date))
      if (newest === null || date > newest) newest = date;
  });
  return newest;
}

export function isSubmissionsOverflow(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && 'accessionNumber' in raw && !('cik' in raw);
}

export function parseSubmissions(raw: unknown, file: string): SecProfile {
  if (typeof raw !== 'object' || raw === null || !('filings' in raw) || !('cik' in raw)) {
    throw new ImportFileError(file, null, 'not an SEC submissions document (no "cik" / "filings")');
  }
  const o = raw as Record<string, unknown>;
  const cik = normaliseCik(o.cik, file);
  const tickers = Array.isArray(o.tickers) ? o.tickers.filter((t): t is string => typeof t === 'string') : [];
  const exchanges = Array.isArray(o.exchanges) ? o.exchanges.map((e) => (typeof e === 'string' ? e : null)) : [];
  const sicNumber = typeof o.sic === 'string' && /^\d+$/.test(o.sic) ? Number(o.sic) : typeof o.sic === 'number' ? o.sic : null;
  return {
    cik,
    name: typeof o.name === 'string' ? o.name : '',
    ticker: tickers[0] ?? null,
    exchange: exchanges[0] ?? null,
    sic: sicNumber,
    sector: sectorForSic(sicNumber),
    industry: typeof o.sicDescription === 'string' && o.sicDescription !== '' ? o.sicDescription : null,
    isDelisted: tickers.length === 0,
    lastReportFiled: lastReportFiled(o.filings),
  };
}

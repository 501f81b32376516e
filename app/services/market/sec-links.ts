// Links from a number to the filing it came from. SEC archive folders are named by the CIK
// (without leading zeros) and the accession number without dashes. Demo companies have
// fictional accessions: there is nothing on the SEC site to link to, so they get no URL.

const ACCESSION = /^\d{10}-\d{2}-\d{6}$/;

export function filingArchiveUrl(cik: string | null | undefined, accession: string | null | undefined, isDemo: boolean): string | null {
  if (isDemo || !cik || !accession || !ACCESSION.test(accession) || !/^\d{1,10}$/.test(cik)) return null;
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replaceAll('-', '')}/`;
}

export const DEMO_FILING_NOTE = 'Demo data: this accession number is fictional, so there is no SEC filing to open.';

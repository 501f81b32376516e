// SEC filings carry a 4-digit SIC code, not a GICS sector. This maps SIC ranges onto the 11
// sectors the rest of Quarry uses (first match wins, so narrow ranges come before wide ones).
// The SIC description itself is kept as the industry.

const RANGES: [from: number, to: number, sector: string][] = [
  [6798, 6798, 'Real Estate'],
  [6500, 6553, 'Real Estate'],
  [1311, 1389, 'Energy'],
  [2911, 2999, 'Energy'],
  [4610, 4619, 'Energy'],
  [1000, 1499, 'Materials'],
  [2800, 2829, 'Materials'],
  [2840, 2899, 'Materials'],
  [2600, 2699, 'Materials'],
  [3300, 3399, 'Materials'],
  [2830, 2836, 'Health Care'],
  [3841, 3851, 'Health Care'],
  [8000, 8099, 'Health Care'],
  [8731, 8734, 'Health Care'],
  [3570, 3579, 'Information Technology'],
  [3600, 3699, 'Information Technology'],
  [3820, 3829, 'Information Technology'],
  [7370, 7379, 'Information Technology'],
  [4800, 4899, 'Communication Services'],
  [2700, 2799, 'Communication Services'],
  [7810, 7819, 'Communication Services'],
  [4900, 4999, 'Utilities'],
  [6000, 6799, 'Financials'],
  [2000, 2199, 'Consumer Staples'],
  [5400, 5499, 'Consumer Staples'],
  [5140, 5149, 'Consumer Staples'],
  [2840, 2844, 'Consumer Staples'],
  [3710, 3716, 'Consumer Discretionary'],
  [5000, 5999, 'Consumer Discretionary'],
  [7000, 7099, 'Consumer Discretionary'],
  [7900, 7999, 'Consumer Discretionary'],
  [2200, 2399, 'Consumer Discretionary'],
  [3700, 3799, 'Industrials'],
  [3400, 3569, 'Industrials'],
  [3580, 3599, 'Industrials'],
  [1500, 1799, 'Industrials'],
  [4000, 4599, 'Industrials'],
  [7300, 7369, 'Industrials'],
  [8700, 8799, 'Industrials'],
];

export function sectorForSic(sic: number | null): string | null {
  if (sic === null || !Number.isInteger(sic)) return null;
  for (const [from, to, sector] of RANGES) if (sic >= from && sic <= to) return sector;
  return null;
}

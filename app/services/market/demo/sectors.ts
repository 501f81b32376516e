// Eleven GICS-like sectors with industries and the traits that shape their demo companies.
// Numbers are rough real-world medians: margins, how much revenue a dollar of assets earns,
// how often they pay dividends, how volatile they are relative to the market.

export type SectorProfile = {
  name: string;
  industries: readonly string[];
  nameWords: readonly string[];
  grossMargin: number;
  operatingMargin: number;
  rndShare: number; // R&D as a share of revenue
  assetTurnover: number; // revenue / total assets, yearly
  inventoryShare: number; // inventory / revenue, yearly
  leverage: number; // liabilities / assets
  priceToSales: number; // median P/S the sector trades at
  revenueGrowth: number; // yearly drift
  dividendPayers: number; // share of companies paying
  beta: number;
  idioVol: number; // yearly idiosyncratic volatility
  weight: number; // share of companies
};

export const SECTORS: readonly SectorProfile[] = [
  { name: 'Information Technology', industries: ['Software', 'Semiconductors', 'IT Services', 'Communications Equipment', 'Electronic Components'], nameWords: ['Systems', 'Software', 'Micro', 'Networks', 'Logic', 'Data', 'Labs', 'Semiconductor'], grossMargin: 0.6, operatingMargin: 0.18, rndShare: 0.14, assetTurnover: 0.6, inventoryShare: 0.04, leverage: 0.45, priceToSales: 4.0, revenueGrowth: 0.09, dividendPayers: 0.3, beta: 1.15, idioVol: 0.28, weight: 0.14 },
  { name: 'Health Care', industries: ['Pharmaceuticals', 'Biotechnology', 'Medical Devices', 'Health Care Providers', 'Life Sciences Tools'], nameWords: ['Therapeutics', 'Health', 'Medical', 'Bio', 'Pharma', 'Diagnostics', 'Care'], grossMargin: 0.55, operatingMargin: 0.13, rndShare: 0.12, assetTurnover: 0.55, inventoryShare: 0.08, leverage: 0.5, priceToSales: 3.0, revenueGrowth: 0.07, dividendPayers: 0.3, beta: 0.95, idioVol: 0.3, weight: 0.13 },
  { name: 'Financials', industries: ['Banks', 'Insurance', 'Capital Markets', 'Consumer Finance'], nameWords: ['Bancorp', 'Financial', 'Capital', 'Trust', 'Insurance', 'Partners'], grossMargin: 0.7, operatingMargin: 0.25, rndShare: 0.0, assetTurnover: 0.12, inventoryShare: 0.0, leverage: 0.88, priceToSales: 2.5, revenueGrowth: 0.05, dividendPayers: 0.7, beta: 1.05, idioVol: 0.2, weight: 0.13 },
  { name: 'Consumer Discretionary', industries: ['Specialty Retail', 'Hotels & Restaurants', 'Automobiles', 'Household Durables', 'Apparel'], nameWords: ['Brands', 'Stores', 'Motors', 'Outfitters', 'Home', 'Leisure'], grossMargin: 0.38, operatingMargin: 0.09, rndShare: 0.01, assetTurnover: 1.1, inventoryShare: 0.14, leverage: 0.6, priceToSales: 1.3, revenueGrowth: 0.06, dividendPayers: 0.4, beta: 1.1, idioVol: 0.27, weight: 0.11 },
  { name: 'Industrials', industries: ['Machinery', 'Aerospace & Defense', 'Building Products', 'Air Freight & Logistics', 'Electrical Equipment'], nameWords: ['Industries', 'Manufacturing', 'Dynamics', 'Aerospace', 'Logistics', 'Engineering'], grossMargin: 0.32, operatingMargin: 0.12, rndShare: 0.03, assetTurnover: 0.8, inventoryShare: 0.15, leverage: 0.6, priceToSales: 1.6, revenueGrowth: 0.05, dividendPayers: 0.55, beta: 1.05, idioVol: 0.22, weight: 0.12 },
  { name: 'Consumer Staples', industries: ['Food Products', 'Beverages', 'Household Products', 'Food Retail'], nameWords: ['Foods', 'Beverage', 'Farms', 'Household', 'Provisions'], grossMargin: 0.35, operatingMargin: 0.11, rndShare: 0.01, assetTurnover: 1.0, inventoryShare: 0.1, leverage: 0.6, priceToSales: 1.4, revenueGrowth: 0.04, dividendPayers: 0.75, beta: 0.7, idioVol: 0.17, weight: 0.06 },
  { name: 'Energy', industries: ['Oil & Gas Exploration', 'Oil & Gas Equipment', 'Refining & Marketing', 'Pipelines'], nameWords: ['Energy', 'Petroleum', 'Resources', 'Drilling', 'Midstream'], grossMargin: 0.3, operatingMargin: 0.12, rndShare: 0.0, assetTurnover: 0.55, inventoryShare: 0.05, leverage: 0.55, priceToSales: 1.2, revenueGrowth: 0.03, dividendPayers: 0.55, beta: 1.2, idioVol: 0.3, weight: 0.06 },
  { name: 'Utilities', industries: ['Electric Utilities', 'Gas Utilities', 'Water Utilities', 'Renewable Power'], nameWords: ['Power', 'Electric', 'Utilities', 'Water', 'Gas'], grossMargin: 0.4, operatingMargin: 0.2, rndShare: 0.0, assetTurnover: 0.25, inventoryShare: 0.03, leverage: 0.72, priceToSales: 2.2, revenueGrowth: 0.03, dividendPayers: 0.9, beta: 0.55, idioVol: 0.15, weight: 0.04 },
  { name: 'Real Estate', industries: ['Residential REITs', 'Office REITs', 'Retail REITs', 'Real Estate Services'], nameWords: ['Realty', 'Properties', 'Estates', 'Land', 'Residential'], grossMargin: 0.6, operatingMargin: 0.3, rndShare: 0.0, assetTurnover: 0.12, inventoryShare: 0.0, leverage: 0.55, priceToSales: 5.0, revenueGrowth: 0.04, dividendPayers: 0.85, beta: 0.85, idioVol: 0.19, weight: 0.06 },
  { name: 'Materials', industries: ['Chemicals', 'Metals & Mining', 'Construction Materials', 'Containers & Packaging'], nameWords: ['Materials', 'Chemical', 'Minerals', 'Steel', 'Packaging'], grossMargin: 0.28, operatingMargin: 0.12, rndShare: 0.02, assetTurnover: 0.75, inventoryShare: 0.14, leverage: 0.55, priceToSales: 1.4, revenueGrowth: 0.04, dividendPayers: 0.6, beta: 1.1, idioVol: 0.25, weight: 0.07 },
  { name: 'Communication Services', industries: ['Interactive Media', 'Entertainment', 'Telecom Services', 'Publishing'], nameWords: ['Media', 'Communications', 'Entertainment', 'Interactive', 'Telecom'], grossMargin: 0.55, operatingMargin: 0.15, rndShare: 0.06, assetTurnover: 0.5, inventoryShare: 0.02, leverage: 0.55, priceToSales: 2.5, revenueGrowth: 0.06, dividendPayers: 0.35, beta: 1.0, idioVol: 0.27, weight: 0.08 },
];

const PREFIXES = ['Al', 'Bel', 'Cor', 'Dun', 'El', 'Fen', 'Gal', 'Har', 'Ist', 'Jor', 'Kel', 'Lum', 'Mar', 'Nor', 'Or', 'Pel', 'Quin', 'Ros', 'Sol', 'Tor', 'Ul', 'Ven', 'Wil', 'Xan', 'Yar', 'Zel', 'Ast', 'Bry', 'Cal', 'Dor', 'Ev', 'Fal', 'Gr', 'Hel', 'Ir', 'Kar', 'Lor', 'Mor', 'Nev', 'Oak', 'Pr', 'Ral', 'Sar', 'Tal', 'Var', 'Wex'];
const MIDDLES = ['a', 'e', 'i', 'o', 'u', 'ar', 'en', 'is', 'on', 'ur', 'ax', 'ex', 'ith', 'ova', 'ent'];
const ENDINGS = ['ton', 'dale', 'ford', 'ley', 'mark', 'wick', 'vale', 'crest', 'gate', 'field', 'stone', 'bridge', 'ora', 'ium', 'ex', 'ic', 'on', 'ia'];

/** A fictional company stem such as "Belentonford"; callers add a sector word and a suffix. */
export function nameStem(pick: <T>(items: readonly T[]) => T): string {
  return pick(PREFIXES) + pick(MIDDLES) + pick(ENDINGS);
}

export const LEGAL_SUFFIXES = ['Inc.', 'Corp.', 'Holdings Inc.', 'Group', 'Co.', 'plc', 'Ltd.'] as const;

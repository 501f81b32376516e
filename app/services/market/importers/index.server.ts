import type { Importer } from '../store/records';
import { pricesImporter } from './prices.server';
import { secImporter } from './sec.server';
import { sharadarImporter } from './sharadar.server';
import { tiingoImporter } from './tiingo.server';
import { nasdaqDataLinkImporter } from './nasdaq-data-link.server';

/** `npm run data -- import <source> ...` looks the source up here. */
export const importers: Record<string, Importer> = {
  sec: secImporter,
  sharadar: sharadarImporter,
  prices: pricesImporter,
  tiingo: tiingoImporter,
  nasdaq: nasdaqDataLinkImporter,
};

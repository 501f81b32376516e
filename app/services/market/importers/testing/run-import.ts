// A minimal stand-in for `npm run data -- import` used by the kill -9 test: runs one importer on
// a market file and prints one line per progress tick, so the test can kill it mid-run.
// Usage: tsx run-import.ts <market.duckdb> <source> [importer args...]
import { withMarketWriter } from '../../store/writer.server';
import { importers } from '../index.server';
import { lineProgress } from './line-progress';

const [file, source, ...args] = process.argv.slice(2);
const importer = importers[source];
if (!file || !importer) {
  process.stderr.write('usage: run-import.ts <market.duckdb> <sec|sharadar|prices> [args...]\n');
  process.exit(2);
}
const summary = await withMarketWriter(file, {}, (writer) =>
  importer.run(args, {
    writer,
    progress: lineProgress((line) => process.stdout.write(`${line}\n`)),
    env: {
      secUserAgent: process.env.SEC_USER_AGENT,
      cacheDir: process.env.PROVIDER_CACHE_DIR,
      tiingo: process.env.TIINGO_API_URL
        ? {
            apiKey: process.env.TIINGO_API_KEY,
            apiUrl: process.env.TIINGO_API_URL,
            tickersUrl: `${process.env.TIINGO_API_URL}/docs/tiingo/daily/supported_tickers.zip`,
            perHour: 1000,
            perDay: 1000,
          }
        : undefined,
    },
  }),
);
process.stdout.write(`snapshot ${summary.snapshotId}\n`);

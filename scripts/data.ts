// `npm run data -- demo|ensure-demo|import|status ...` (see app/services/market/data-cli.server.ts).
import { processIo, runDataCli } from '../app/services/market/data-cli.server';

const code = await runDataCli(process.argv.slice(2), processIo());
process.exitCode = code;

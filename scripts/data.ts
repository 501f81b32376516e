// `npm run data -- demo|ensure-demo|import|status ...` (see app/services/imports/data-cli.server.ts).
import { closeDb } from '../app/services/db/db.server';
import { processIo, runDataCli } from '../app/services/imports/data-cli.server';
import { boundHeapGrowth } from './heap-growth.mjs';

boundHeapGrowth();

const code = await runDataCli(process.argv.slice(2), processIo());
// An import opened the app database (its job row); a PostgreSQL pool would keep the process alive.
await closeDb();
process.exitCode = code;

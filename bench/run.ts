// `npm run bench`: runs every benchmark module in this folder (each exports a default
// `run(opts)` and prints its own numbers as ratios against a baseline it measures in the same
// run). Benchmarks are never timed tests: they report, they do not pass or fail on speed.
//
//   npm run bench                # all, full size (the 6,000-company × 25-year universe)
//   npm run bench -- --quick     # all, small sizes (a smoke run)
//   npm run bench -- screener    # only bench/screener.ts
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type BenchModule = { default?: (opts: { quick?: boolean }) => Promise<unknown> | unknown };

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.filter((a) => !a.startsWith('--'));

const modules = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.endsWith('.test.ts') && !f.startsWith('_'))
  .map((f) => f.replace(/\.ts$/, ''))
  .filter((name) => only.length === 0 || only.includes(name))
  .sort();

if (modules.length === 0) {
  console.error(only.length ? `No benchmark named ${only.join(', ')} in bench/.` : 'No benchmarks in bench/.');
  process.exit(2);
}

console.log(`Quarry benchmarks (${quick ? 'quick' : 'full'} size) on ${process.version}, ${process.platform}/${process.arch}`);
let failed = 0;
for (const name of modules) {
  const mod = (await import(pathToFileURL(path.join(here, `${name}.ts`)).href)) as BenchModule;
  if (typeof mod.default !== 'function') {
    console.log(`\n== ${name}: no default run() export, skipped`);
    continue;
  }
  console.log(`\n== ${name}`);
  const started = performance.now();
  try {
    await mod.default({ quick });
    console.log(`(${name} took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed++;
    console.error(`${name} failed:`, error);
  }
}
process.exit(failed ? 1 : 0);

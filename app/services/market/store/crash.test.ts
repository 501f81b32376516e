import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { SecurityRecord } from './records';
import { openMarketReader } from './open-store.server';
import { openMarketWriter, withMarketWriter } from './writer.server';

// kill -9 in the middle of a write: the published store stays as it was, and the next writer
// cleans up the dead writer's lock and work file and finishes normally.

const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const here = path.dirname(fileURLToPath(import.meta.url));
// tsx as a loader in this very process (its CLI would fork a grandchild that SIGKILL misses).
const repoRoot = path.resolve(here, '../../../..');

const security = (permaticker: number, ticker: string): SecurityRecord => ({
  permaticker,
  ticker,
  name: ticker,
  exchange: null,
  category: null,
  sector: null,
  industry: null,
  cik: null,
  firstPriceDate: null,
  lastPriceDate: null,
  isDelisted: false,
  source: 'test',
});

async function tickers(file: string): Promise<string[]> {
  const reader = await openMarketReader(file);
  try {
    return (await reader.all<{ ticker: string }>(`SELECT ticker FROM securities ORDER BY ticker`)).map((r) => r.ticker);
  } finally {
    reader.close();
  }
}

describe('a writer killed with SIGKILL', () => {
  it('leaves the published store unchanged, and the next run completes', async () => {
    const file = path.join(dir, 'market.duckdb');
    await withMarketWriter(file, {}, (w) => w.transaction((tx) => tx.upsertSecurities([security(1, 'KEEP')])));

    const script = path.join(dir, 'child.mts');
    writeFileSync(
      script,
      `import { openMarketWriter } from ${JSON.stringify(path.join(here, 'writer.server.ts'))};
const w = await openMarketWriter(${JSON.stringify(file)});
await w.transaction(async (tx) => {
  await tx.upsertSecurities([{ permaticker: 2, ticker: 'HALF', name: 'HALF', exchange: null, category: null, sector: null, industry: null, cik: null, firstPriceDate: null, lastPriceDate: null, isDelisted: false, source: 'test' }]);
});
process.stdout.write('committed-in-work-file\\n');
setInterval(() => {}, 1000);
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => String(d).includes('committed-in-work-file') && resolve());
      child.on('exit', (code) => reject(new Error(`child exited early (${code}): ${stderr}`)));
    });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;

    expect(existsSync(`${file}.lock`)).toBe(true);
    expect(readdirSync(dir).some((f) => f.startsWith('market.duckdb.writing-'))).toBe(true);
    expect(await tickers(file)).toEqual(['KEEP']);

    const writer = await openMarketWriter(file);
    await writer.transaction((tx) => tx.upsertSecurities([security(3, 'NEXT')]));
    await writer.publish();
    expect(await tickers(file)).toEqual(['KEEP', 'NEXT']);
    expect(
      readdirSync(dir)
        .filter((f) => f.startsWith('market.duckdb'))
        .sort(),
    ).toEqual(['market.duckdb']);
  });
});

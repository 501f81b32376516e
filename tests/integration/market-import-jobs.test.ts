import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '~/services/admin/audit.server';
import { cancelJobAsAdmin, listAdminJobs, retryJobAsAdmin } from '~/services/admin/jobs.server';
import { APP_JOBS } from '~/services/app-jobs.server';
import { createUser } from '~/services/auth/users.server';
import { resetConfigForTests } from '~/services/config.server';
import { getDb } from '~/services/db/db.server';
import { DomainError } from '~/services/http/errors';
import { runJob } from '~/services/jobs/runner.server';
import { getJob } from '~/services/jobs/store.server';
import { runDataCli, type CliIo } from '~/services/imports/data-cli.server';
import { absoluteImportArgs } from '~/services/imports/import-job.server';
import { silentProgress } from '~/services/imports/progress.server';
import { openMarketReader } from '~/services/market/store/open-store.server';
import type { ProgressReporter } from '~/services/market/store/records';
import { forEachDatabase } from '../support/databases';

// Market data imports are jobs: `npm run data -- import` records one and runs it in its own
// process; the admin page lists it (succeeded, failed with its error), can cancel it while it
// runs (the published store is untouched) and retry it, which any worker then runs.

const FIX = path.resolve('tests/fixtures/prices');
const GOOD = ['TIIN.csv', 'ZIPL.csv', 'YHOO.csv', 'panel.csv', 'exmp.us.csv'].map((f) => path.join(FIX, f));
const work = mkdtempSync(path.join(tmpdir(), 'quarry-import-jobs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function capture(progress: ProgressReporter = silentProgress): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), progress };
}

const jobIdOf = (io: { stdout: string[] }) => {
  const id = /^Import job (\S+) \(listed on the admin page\)\.$/.exec(io.stdout[0] ?? '')?.[1];
  if (!id) throw new Error(`no job id in ${JSON.stringify(io.stdout)}`);
  return id;
};
/** What the published store holds (a failed run is still noted in its import_runs). */
async function contents(file: string): Promise<{ snapshot: string; prices: number }> {
  const reader = await openMarketReader(file);
  try {
    const [row] = await reader.all<{ snapshot: string; prices: number }>(
      `SELECT (SELECT value FROM meta WHERE key = 'snapshot_id') AS snapshot, (SELECT count(*) FROM prices)::INTEGER AS prices`,
    );
    return row;
  } finally {
    reader.close();
  }
}

describe('import arguments', () => {
  it('are stored with absolute paths, flags and names left as they are', () => {
    const cwd = path.resolve('tests/fixtures');
    expect(absoluteImportArgs(['--ticker', 'EXFX', 'prices/PLAIN.csv', '/abs/not/there.csv', 'no-such-file.csv'], cwd)).toEqual([
      '--ticker',
      'EXFX',
      path.join(cwd, 'prices/PLAIN.csv'),
      '/abs/not/there.csv',
      'no-such-file.csv',
    ]);
  });
});

forEachDatabase('market imports as jobs', (target) => {
  let previousMarket: string | undefined;
  let market = '';
  let admin = '';
  beforeAll(async () => {
    previousMarket = process.env.MARKET_DB;
    market = path.join(target.dataDir, 'market.duckdb');
    process.env.MARKET_DB = market;
    resetConfigForTests();
    admin = (
      await createUser({
        email: `root-${Date.now().toString(36)}@example.com`,
        password: 'correct horse battery',
        full_name: 'Root',
        access: true,
      })
    ).id;
    const db = await getDb();
    await db.updateTable('users').set({ is_superuser: 1 }).where('id', '=', admin).execute();
  });
  afterAll(() => {
    if (previousMarket === undefined) delete process.env.MARKET_DB;
    else process.env.MARKET_DB = previousMarket;
    resetConfigForTests();
  });

  it('the CLI import is a job, listed on the admin page as succeeded with its summary', async () => {
    const io = capture();
    const relative = path.relative(process.cwd(), GOOD[0]);
    expect(await runDataCli(['import', 'prices', relative, ...GOOD.slice(1)], io), io.stderr.join('\n')).toBe(0);
    const id = jobIdOf(io);
    expect(io.stdout[1]).toMatch(/^Imported prices: 6 securities, \d+ rows\. Snapshot [0-9a-f]{32}\.$/);
    expect(io.stderr).toEqual([expect.stringMatching(/^warning: .*no close, row skipped/)]);

    const job = await getJob(id);
    expect(job).toMatchObject({ kind: 'market-import', status: 'succeeded', attempts: 1, max_attempts: 1, user_id: null });
    expect(job?.message).toMatch(
      /^Imported prices: 6 securities, \d+ rows\. Snapshot [0-9a-f]{32}\. 1 warning\(s\): .*no close, row skipped/,
    );
    expect(JSON.parse(job?.payload ?? '{}')).toEqual({ source: 'prices', args: GOOD });
    expect((await listAdminJobs()).recent.find((j) => j.id === id)).toMatchObject({
      kind: 'market-import',
      status: 'succeeded',
      user_email: null,
    });

    const status = capture();
    expect(await runDataCli(['status'], status)).toBe(0);
    expect(status.stdout.join('\n')).toMatch(/Securities: +6/);
  });

  it('a failed import is listed with its error after one attempt; fixed and retried by the admin, a worker runs it', async () => {
    const file = path.join(work, `BAD-${target.dialect}.csv`);
    writeFileSync(file, 'date,open,high,low,close,volume\n2020-01-02,1,2,0.5,not-a-price,100\n');
    const before = await contents(market);
    const io = capture();
    expect(await runDataCli(['import', 'prices', file], io)).toBe(1);
    expect(io.stderr.join('\n')).toContain(`Import failed, the store is unchanged: ${file}:2`);
    expect(await contents(market)).toEqual(before);
    const id = jobIdOf(io);
    const failed = (await listAdminJobs()).failed.find((j) => j.id === id);
    expect(failed).toMatchObject({ kind: 'market-import', status: 'failed', attempts: 1 });
    expect(failed?.error).toContain(`${file}:2`);

    writeFileSync(file, 'date,open,high,low,close,volume\n2020-01-02,1,2,0.5,1.5,100\n2020-01-03,1.5,2,1,1.8,120\n');
    await retryJobAsAdmin(admin, id);
    expect((await getJob(id))?.status).toBe('queued');
    expect(await runJob(id, 'another-worker', 30_000, APP_JOBS)).toBe('succeeded');
    expect((await getJob(id))?.message).toMatch(/^Imported prices: 1 securities, 2 rows\./);
    expect((await contents(market)).prices).toBe(before.prices + 2);
    expect((await listAudit(1)).rows.map((r) => r.action)).toContain('job.retry');
  });

  it('a cancel from the admin page stops a running import, and the published store is unchanged', async () => {
    const before = await contents(market);
    let asked = false;
    // The admin presses "Cancel" while the import is at its first ticker.
    const progress: ProgressReporter = {
      ...silentProgress,
      tick() {
        if (asked) return;
        asked = true;
        void (async () => {
          const db = await getDb();
          const running = await db
            .selectFrom('jobs')
            .select('id')
            .where('kind', '=', 'market-import')
            .where('status', '=', 'running')
            .executeTakeFirstOrThrow();
          // On PostgreSQL the admin's transaction can meet the job's own progress write (409
          // "try again"), as a second click would.
          for (let attempt = 0; ; attempt++) {
            try {
              return await cancelJobAsAdmin(admin, running.id);
            } catch (e) {
              if (!(e instanceof DomainError && e.status === 409) || attempt >= 20) throw e;
            }
          }
        })();
      },
    };
    const io = capture(progress);
    // Many files: the import is still going when the cancel is seen.
    const files = Array.from({ length: 120 }, (_, i) => {
      const f = path.join(work, `T${i}-${target.dialect}.csv`);
      writeFileSync(f, `date,open,high,low,close,volume\n2021-01-04,1,2,0.5,${1 + i / 10},100\n2021-01-05,1,2,0.5,${1.1 + i / 10},100\n`);
      return f;
    });
    expect(await runDataCli(['import', 'prices', ...files], io)).toBe(1);
    expect(asked).toBe(true);
    expect(io.stderr).toContain('Import cancelled, the store is unchanged.');
    expect((await getJob(jobIdOf(io)))?.status).toBe('cancelled');
    expect(await contents(market)).toEqual(before);
  });
});

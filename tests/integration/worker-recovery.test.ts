import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '~/services/auth/users.server';
import { createBacktest, getBacktest } from '~/services/backtest/backtests.server';
import { getJob } from '~/services/jobs/store.server';
import { closeJobQueue } from '~/services/jobs/queue.server';
import { createScreener } from '~/services/screener/saved.server';
import { ruleFromText, ScreenSchema } from '~/services/screener/model';
import { testMarket } from '../support/backtest-market';
import { until } from '../support/until';
import { POSTGRES_URL, useDatabase } from '../support/databases';

// Kill -9 a `npm run worker` process in the middle of a backtest: the job is taken over by the
// next worker once the lease lapses and ends with the same result as an uninterrupted run.
// Once with SQLite and the polling worker, once with PostgreSQL and BullMQ on Redis.

const REDIS_URL = process.env.REDIS_URL;
const market = testMarket({ companies: 50, years: 4, seed: 11 });
beforeAll(() => market.build(), 120_000);
afterAll(() => market.remove());

const screen = ScreenSchema.parse({ rules: [ruleFromText('price > 1')], ranking: [{ metric: 'ret_3m', direction: 'desc', weight: 1 }] });
const LEASE_MS = 1_500;

function startWorker(extraEnv: Record<string, string | undefined>): { child: ChildProcess; output: () => string } {
  let output = '';
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...extraEnv,
    NODE_ENV: 'test',
    MARKET_DB: market.file,
    JOB_LEASE_MS: String(LEASE_MS),
    // Slow steps, so the kill lands in the middle of the run.
    QUARRY_TEST_JOB_STEP_DELAY_MS: '40',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
}

function recoveryScenario(workerEnv: () => Record<string, string | undefined>) {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  });
  afterAll(() => closeJobQueue());

  it('finishes a killed worker’s backtest after restart with the result of an uninterrupted run', async () => {
    const user = await createUser({
      email: `kill-${randomBytes(4).toString('hex')}@example.com`,
      full_name: 'Kim Kill',
      password: 'correct horse 1',
      access: true,
    });
    const screener = await createScreener(user.id, { name: 'Short-term momentum', screen });
    const params = { start: '2021-06-01', end: '2023-06-30', rebalance: 'monthly', topN: 8 };
    const first = await createBacktest(user.id, { screenerId: screener.id, params });

    const a = startWorker(workerEnv());
    children.push(a.child);
    await until(
      async () => ((await getJob(first.id))?.progress ?? 0) >= 0.6,
      `progress in the engine phase (worker output: ${a.output()})`,
    );
    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));
    // The job stays leased to the dead worker until the lease lapses. (Its compute process may
    // still store the result it was saving when the worker died: the same result, found by the
    // next worker, which then finishes the job.)
    const orphan = await getJob(first.id);
    expect(orphan?.status).toBe('running');

    const b = startWorker(workerEnv());
    children.push(b.child);
    await until(
      async () => (await getJob(first.id))?.status === 'succeeded',
      `the backtest's job after restart (worker output: ${b.output()})`,
    );
    expect((await getBacktest(user.id, first.id)).status).toBe('succeeded');
    expect((await getJob(first.id))?.attempts).toBe(2);

    const second = await createBacktest(user.id, { screenerId: screener.id, params });
    await until(
      async () => (await getBacktest(user.id, second.id)).status === 'succeeded',
      `an uninterrupted run (worker output: ${b.output()})`,
    );
    expect((await getJob(second.id))?.attempts).toBe(1);
    const resumed = (await getBacktest(user.id, first.id, { withResult: true })).result;
    const uninterrupted = (await getBacktest(user.id, second.id, { withResult: true })).result;
    expect(resumed).not.toBeNull();
    expect(JSON.stringify(resumed)).toBe(JSON.stringify(uninterrupted));
    b.child.kill('SIGTERM');
  }, 180_000);
}

describe('worker killed mid-run [sqlite, polling worker]', () => {
  const db = useDatabase('sqlite', 'worker-recovery', { env: { REDIS_URL: undefined, MARKET_DB: market.file } });
  recoveryScenario(() => ({ DATA_DIR: db.dataDir, DATABASE_URL: undefined, REDIS_URL: undefined }));
});

const bullPrefix = `quarry-test-${randomBytes(4).toString('hex')}`;
describe.skipIf(!POSTGRES_URL || !REDIS_URL)(
  `worker killed mid-run [postgres, BullMQ on Redis]${!POSTGRES_URL || !REDIS_URL ? ' (skipped: set DATABASE_URL and REDIS_URL to run it)' : ''}`,
  () => {
    const db = useDatabase('postgres', 'worker-recovery', {
      env: { REDIS_URL, MARKET_DB: market.file, JOBS_QUEUE_PREFIX: bullPrefix, JOB_LEASE_MS: String(LEASE_MS) },
    });
    recoveryScenario(() => ({ DATA_DIR: db.dataDir, DATABASE_URL: process.env.DATABASE_URL, REDIS_URL, JOBS_QUEUE_PREFIX: bullPrefix }));
  },
);

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { subscriptionGrantsAccess } from '~/services/auth/users.server';
import { reconcileSubscriptions, WEBHOOK_KEY_RETENTION_DAYS } from '~/services/billing/reconcile.server';
import { APP_JOBS } from '~/services/app-jobs.server';
import { getDb } from '~/services/db/db.server';
import { runJob } from '~/services/jobs/runner.server';
import { enqueueDueJobs } from '~/services/jobs/schedule.server';
import { getJob } from '~/services/jobs/store.server';
import { closeJobQueue } from '~/services/jobs/queue.server';
import { billingUser, deliver, resetProviderPerRun, useLemonSqueezy, webhookBody } from '../support/billing';
import { forEachDatabase, type DatabaseTarget } from '../support/databases';

// Reconciliation re-reads the provider so a missed webhook heals; it is idempotent and can run
// next to itself. Also through `npm run billing:reconcile`, as an operator runs it.

const { sim, env } = useLemonSqueezy();

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

const run = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');
const SCRIPT = path.resolve('scripts/billing-reconcile.ts');

async function cli(
  target: DatabaseTarget,
  extraEnv: Record<string, string | undefined>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(TSX, [SCRIPT], {
      env: { ...process.env, DATA_DIR: target.dataDir, ...extraEnv },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

async function statusOf(id: string) {
  return (await (await getDb()).selectFrom('subscriptions').select('status').where('provider_id', '=', id).executeTakeFirst())?.status;
}

forEachDatabase(
  'billing reconciliation',
  (target) => {
    resetProviderPerRun(sim);

    afterAll(() => closeJobQueue());

    it('heals a missed subscription_created (linked by e-mail) and a missed expiry', async () => {
      const user = await billingUser('missed@example.com');
      // The checkout went through, but the webhook never arrived.
      sim().putSubscription('61', { user_email: 'missed@example.com', updated_at: at(-2 * HOUR) });
      expect(await subscriptionGrantsAccess(user.id)).toBe(false);

      const first = await reconcileSubscriptions();
      expect(first).toMatchObject({ seen: 1, applied: 1, unlinked: 0, gone: 0 });
      expect(await subscriptionGrantsAccess(user.id)).toBe(true);

      // Then it expired, and that webhook was lost too.
      sim().putSubscription('61', { status: 'expired', ends_at: at(-HOUR), updated_at: at(-HOUR) });
      await reconcileSubscriptions();
      expect(await statusOf('61')).toBe('expired');
      expect(await subscriptionGrantsAccess(user.id)).toBe(false);
    });

    it('changes nothing when run again, never undoes a newer webhook, and can run concurrently', async () => {
      const user = await billingUser('steady@example.com');
      await deliver(webhookBody('subscription_created', sim().putSubscription('62', { updated_at: at(-2 * HOUR) }), { user_id: user.id }));
      // A webhook newer than what the provider's API still answers (eventual consistency).
      const newer = sim().putSubscription('62', { status: 'cancelled', cancelled: true, ends_at: at(HOUR), updated_at: at(-HOUR) });
      await deliver(webhookBody('subscription_cancelled', newer, { user_id: user.id }));
      sim().putSubscription('62', { status: 'active', cancelled: false, ends_at: null, updated_at: at(-2 * HOUR) });

      const reports = await Promise.all([reconcileSubscriptions(), reconcileSubscriptions(), reconcileSubscriptions()]);
      for (const r of reports) expect(r.stale).toBeGreaterThanOrEqual(1);
      expect(await statusOf('62')).toBe('cancelled');
      const rows = await (
        await getDb()
      )
        .selectFrom('subscriptions')
        .select(['provider_id', 'status', 'provider_updated_at'])
        .orderBy('provider_id')
        .execute();
      const again = await reconcileSubscriptions();
      expect(again.gone).toBe(0);
      expect(
        await (
          await getDb()
        )
          .selectFrom('subscriptions')
          .select(['provider_id', 'status', 'provider_updated_at'])
          .orderBy('provider_id')
          .execute(),
      ).toEqual(rows);
    });

    it('reads every page of the store’s list, skips other stores and odd entries, and marks vanished subscriptions expired', async () => {
      const user = await billingUser('paged@example.com');
      for (let i = 0; i < 130; i++)
        sim().putSubscription(String(1000 + i), { user_email: `stranger${i}@example.com`, updated_at: at(-HOUR) });
      sim().putSubscription('1200', { user_email: 'paged@example.com', updated_at: at(-HOUR) });
      sim().putSubscription('1201', { store_id: 1, user_email: 'paged@example.com', updated_at: at(-HOUR) });
      sim().putSubscription('1202', { status: 'Not A Status!', user_email: 'paged@example.com', updated_at: at(-HOUR) });
      const before = sim().requests.length;
      const report = await reconcileSubscriptions();
      const pages = sim()
        .requests.slice(before)
        .filter((r) => r.path.startsWith('/v1/subscriptions?'));
      expect(pages.map((r) => new URL(r.path, sim().url).searchParams.get('page[number]'))).toEqual(['1', '2']);
      expect(pages.every((r) => new URL(r.path, sim().url).searchParams.get('filter[store_id]') === sim().storeId)).toBe(true);
      expect(report.unlinked).toBe(130);
      expect(report.malformed).toBe(1);
      expect(await statusOf('1202')).toBeUndefined();
      expect(await statusOf('1200')).toBe('active');
      expect(await statusOf('1201')).toBeUndefined();
      expect(await subscriptionGrantsAccess(user.id)).toBe(true);

      // The provider no longer knows a subscription we have (deleted, or test data wiped).
      sim().subscriptions.delete('1200');
      const after = await reconcileSubscriptions();
      expect(after.gone).toBe(1);
      expect(await statusOf('1200')).toBe('expired');
      expect(await subscriptionGrantsAccess(user.id)).toBe(false);
    });

    it('prunes processed-webhook keys past the retention, keeping recent ones', async () => {
      const db = await getDb();
      const old = new Date(Date.now() - (WEBHOOK_KEY_RETENTION_DAYS + 1) * 24 * HOUR).toISOString();
      await db
        .insertInto('billing_webhook_events')
        .values([
          { dedupe_key: 'a'.repeat(64), event_name: 'subscription_updated', outcome: 'applied', subscription_id: '1', received_at: old },
          {
            dedupe_key: 'b'.repeat(64),
            event_name: 'subscription_updated',
            outcome: 'applied',
            subscription_id: '1',
            received_at: at(-HOUR),
          },
        ])
        .execute();
      expect((await reconcileSubscriptions()).prunedWebhookKeys).toBe(1);
      const keys = (await db.selectFrom('billing_webhook_events').select('dedupe_key').execute()).map((r) => r.dedupe_key);
      expect(keys).toContain('b'.repeat(64));
      expect(keys).not.toContain('a'.repeat(64));
    });

    it('stops with the provider’s error and leaves the rows as they were', async () => {
      const rows = () => getDb().then((db) => db.selectFrom('subscriptions').selectAll().orderBy('provider_id').execute());
      const before = await rows();
      expect(before.length).toBeGreaterThan(0);
      sim().putSubscription('61', { status: 'active', ends_at: null, updated_at: at(0) });
      sim().failNext(503, 3, '/v1/subscriptions');
      await expect(reconcileSubscriptions()).rejects.toMatchObject({
        status: 503,
        detail: expect.stringContaining('not answering (list the subscriptions)'),
      });
      expect(await rows()).toEqual(before);
    });

    it('runs as `npm run billing:reconcile`', async () => {
      const user = await billingUser('cli@example.com');
      sim().putSubscription('71', { user_email: 'cli@example.com', updated_at: at(-HOUR) });
      const ok = await cli(target, { ...env, DATABASE_URL: process.env.DATABASE_URL });
      expect(ok.stderr).toBe('');
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/^Reconciled \d+ subscription\(s\): \d+ stored, .* old webhook key\(s\) pruned\.$/m);
      expect(await subscriptionGrantsAccess(user.id)).toBe(true);

      const off = await cli(target, {
        ...Object.fromEntries(Object.keys(env).map((k) => [k, ''])),
        DATABASE_URL: process.env.DATABASE_URL,
      });
      expect(off.code).toBe(2);
      expect(off.stderr).toContain('Billing is not enabled');
      const half = await cli(target, { ...env, BILLING_WEBHOOK_SECRET: '', DATABASE_URL: process.env.DATABASE_URL });
      expect(half.code).toBe(1);
      expect(half.stderr).toContain('Billing is half configured: set BILLING_WEBHOOK_SECRET too');
    });

    it('runs by itself as a recurring job, one per period', async () => {
      const user = await billingUser('scheduled@example.com');
      sim().putSubscription('72', { user_email: 'scheduled@example.com', updated_at: at(-HOUR) });
      expect(await subscriptionGrantsAccess(user.id)).toBe(false);
      const id = (await enqueueDueJobs(APP_JOBS)).find((j) => j.startsWith('billing-reconcile@'));
      expect(id).toBeDefined();
      expect(await enqueueDueJobs(APP_JOBS)).toContain(id);
      expect(await runJob(id!, 'test-worker', 5_000, APP_JOBS)).toBe('succeeded');
      expect((await getJob(id!))?.message).toMatch(/^Reconciled \d+ subscription\(s\): [1-9]\d* stored/);
      expect(await subscriptionGrantsAccess(user.id)).toBe(true);
    });
  },
  { env },
);

import { afterAll, beforeAll, expect, it } from 'vitest';
import * as backtestRoute from '~/routes/_app.backtest';
import * as csvRoute from '~/routes/_app.backtest_.csv';
import * as methodologyRoute from '~/routes/_app.backtest_.methodology';
import * as sharedRoute from '~/routes/_app.backtest_.shared.$token';
import * as manageRoute from '~/routes/_app.screener.manage';
import { APP_JOBS } from '~/services/app-jobs.server';
import { getBacktest, listBacktests } from '~/services/backtest/backtests.server';
import { closeJobQueue, startJobWorker, type JobWorker } from '~/services/jobs/queue.server';
import { createScreener } from '~/services/screener/saved.server';
import { ruleFromText, ScreenSchema } from '~/services/screener/model';
import { callPage } from '../support/api';
import { testMarket } from '../support/backtest-market';
import { forEachDatabase } from '../support/databases';
import { newSignedInAccount } from '../support/pages';

// The /backtest pages with real Requests and session cookies on SQLite and PostgreSQL, a real
// DuckDB demo market and this process's job worker: the run form (good and hostile input),
// progress, result views, CSV, the shared link, cancel and delete through the confirm modal,
// and 404 for everything of another user.

const market = testMarket();
beforeAll(() => market.build(), 120_000);
afterAll(() => market.remove());

const screen = ScreenSchema.parse({
  rules: [ruleFromText('price > 1'), ruleFromText('ret_6m in top 50% of universe')],
  ranking: [{ metric: 'ret_6m', direction: 'desc', weight: 1 }],
});

const form = (over: Record<string, string> = {}) => ({
  intent: 'run',
  start: '2021-01-04',
  end: '2023-12-29',
  rebalance: 'monthly',
  topN: '10',
  weighting: 'equal',
  maxWeight: '',
  commissionBps: '5',
  slippageBps: '5',
  fixedCostPerTrade: '0',
  riskFreeRate: '2',
  benchmark: '',
  initialCapital: '10000',
  ...over,
});

type Page = {
  mode: string;
  backtest: {
    id: string;
    status: string;
    params: Record<string, unknown>;
    benchmark: string;
    shareToken: string | null;
    screenerId: string | null;
  };
  result: null | {
    statistics: Record<string, unknown>;
    rebalances: { page: number; pageCount: number; total: number; rows: { n: number; holdingCount: number }[] };
    openRebalance: null | { n: number; holdings: { ticker: string; values: Record<string, number | null> }[]; metrics: string[] };
    trades: { page: number; total: number };
    survivors: null | { totalReturnGapPp: number };
    curve: unknown[];
  };
  problems: string[];
  modal: null | { kind: string; action: string; fields: Record<string, string> };
};

async function until(check: () => Promise<boolean>, what: string, ms = 90_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const signIn = (email: string) => newSignedInAccount(email, { full_name: 'Backtest User' });

forEachDatabase(
  'backtest pages',
  () => {
    let a: { cookie: string; id: string };
    let b: { cookie: string; id: string };
    let screenerId: string;
    let worker: JobWorker | null = null;
    let doneId = '';
    const load = (path: string, cookie = a.cookie) => callPage(backtestRoute.loader, path, cookie);
    const post = (path: string, fields: Record<string, string>, cookie = a.cookie) =>
      callPage(backtestRoute.action, path, cookie, { form: fields });

    beforeAll(async () => {
      a = await signIn('bp-a@example.com');
      b = await signIn('bp-b@example.com');
      screenerId = (await createScreener(a.id, { name: 'Momentum', screen })).id;
    });
    afterAll(async () => {
      await worker?.stop();
      await closeJobQueue();
    });

    it('shows the run form prefilled from the market data, and sends /backtest without ids to /screener', async () => {
      const page = await load(`/backtest?screener_id=${screenerId}`);
      expect(page.status).toBe(200);
      const v = page.value as {
        mode: string;
        screener: { name: string; rules: string[] };
        defaults: Record<string, string>;
        backtests: unknown[];
      };
      expect(v.mode).toBe('form');
      expect(v.screener).toMatchObject({ name: 'Momentum', rules: ['price > 1', 'ret_6m in top 50% of universe'] });
      expect(v.defaults).toMatchObject({
        rebalance: 'monthly',
        topN: '20',
        weighting: 'equal',
        benchmark: '',
        riskFreeRate: '0',
        initialCapital: '10000',
      });
      expect(v.defaults.start < v.defaults.end).toBe(true);
      expect(v.backtests).toEqual([]);
      for (const path of ['/backtest', '/backtest?screener_id=', '/backtest?backtest_id=%20']) {
        expect(await load(path)).toMatchObject({ status: 302, location: '/screener' });
      }
      const methodology = await callPage(methodologyRoute.loader, '/backtest/methodology', a.cookie);
      expect(methodology.status).toBe(200);
    });

    it('answers unknown, foreign and hostile ids with the 404 page, never a 500', async () => {
      for (const path of [
        `/backtest?screener_id=${encodeURIComponent('<script>alert(1)</script>')}`,
        '/backtest?screener_id=00000000-0000-0000-0000-000000000000',
        `/backtest?backtest_id=${encodeURIComponent('../../etc/passwd')}`,
        `/backtest?backtest_id=${'9'.repeat(500)}`,
        '/backtest?backtest_id=00000000-0000-0000-0000-000000000000',
      ]) {
        const r = await load(path);
        expect([path, r.status]).toEqual([path, 404]);
        expect(r.text).toMatch(/not found/i);
      }
      expect((await load(`/backtest?screener_id=${screenerId}`, b.cookie)).status).toBe(404);
    });

    it('puts bad form input back on its fields with a 4xx and keeps what was typed', async () => {
      const path = `/backtest?screener_id=${screenerId}`;
      const bad = await post(path, form({ start: '2023-13-01', topN: 'many', commissionBps: '-3' }));
      expect(bad.status).toBe(400);
      const reply = bad.value as { error: Record<string, string[]>; initialValue: Record<string, string> };
      expect(reply.error.start.join(' ')).toContain('is not a date');
      expect(reply.error.topN.join(' ')).toContain('Hold a whole number');
      expect(reply.error.commissionBps.join(' ')).toContain('cannot be negative');
      expect(reply.initialValue).toMatchObject({ topN: 'many', slippageBps: '5' });

      const unknownBenchmark = await post(path, form({ benchmark: 'NOSUCHTICKER' }));
      expect(unknownBenchmark.status).toBe(422);
      expect((unknownBenchmark.value as { error: Record<string, string[]> }).error.benchmark.join(' ')).toContain(
        'No company has the ticker or permaticker “NOSUCHTICKER”',
      );

      const outside = await post(path, form({ start: '1990-01-02', end: '1991-01-02' }));
      expect(outside.status).toBe(422);
      expect((outside.value as { error: Record<string, string[]> }).error.start.join(' ')).toContain('The market data covers');

      expect((await post(path, { intent: 'explode' })).status).toBe(400);
      expect((await post('/backtest?backtest_id=x', form())).status).toBe(400);
      expect((await post('/backtest?screener_id=00000000-0000-0000-0000-000000000000', form())).status).toBe(404);
      expect((await post(path, form(), b.cookie)).status).toBe(404);
      expect(await listBacktests(a.id)).toEqual([]);
    });

    it('shows the stored-result limit’s message on the form when a run is over it, and queues nothing', async () => {
      process.env.QUARRY_TEST_MAX_RESULT_BYTES = '100000';
      try {
        const over = await post(`/backtest?screener_id=${screenerId}`, form({ rebalance: 'daily', topN: '50' }));
        expect(over.status).toBe(422);
        // The form-level error (shown above the form) is the API's detail.
        const reply = over.value as { error: Record<string, string[]> };
        expect(reply.error[''].join(' ')).toMatch(/the limit is 100,000 bytes per stored backtest result\./);
      } finally {
        delete process.env.QUARRY_TEST_MAX_RESULT_BYTES;
      }
      expect(await listBacktests(a.id)).toEqual([]);
    });

    it('runs from the form: progress while waiting, cancel, then a result once a worker runs it', async () => {
      const path = `/backtest?screener_id=${screenerId}`;
      const first = await post(path, form());
      expect(first.status).toBe(302);
      const firstId = new URL(`http://x${first.location}`).searchParams.get('backtest_id') ?? '';
      const waiting = await load(`/backtest?backtest_id=${firstId}`);
      expect(waiting.status).toBe(200);
      expect((waiting.value as Page).backtest.status).toBe('queued');
      expect((waiting.value as Page).result).toBeNull();
      expect((await post(`/backtest?backtest_id=${firstId}`, { intent: 'cancel', id: firstId }, b.cookie)).status).toBe(404);
      const cancelled = await post(`/backtest?backtest_id=${firstId}`, { intent: 'cancel', id: firstId });
      expect(cancelled).toMatchObject({ status: 302, location: `/backtest?backtest_id=${firstId}` });
      expect(((await load(`/backtest?backtest_id=${firstId}`)).value as Page).backtest.status).toBe('cancelled');

      const second = await post(path, form({ benchmark: '', maxWeight: '15', riskFreeRate: '1.5' }));
      doneId = new URL(`http://x${second.location}`).searchParams.get('backtest_id') ?? '';
      worker = startJobWorker(APP_JOBS);
      await until(async () => (await getBacktest(a.id, doneId)).status === 'succeeded', 'the backtest');
      const done = (await load(`/backtest?backtest_id=${doneId}`)).value as Page;
      expect(done.backtest.params).toMatchObject({ maxWeight: 0.15, riskFreeRate: 0.015, topN: 10, benchmark: 'equal_weight_universe' });
      expect(done.backtest.benchmark).toBe('Equal-weighted universe');
      expect(done.result?.rebalances.total).toBeGreaterThan(20);
      expect(done.result?.curve.length).toBeLessThanOrEqual(400);
      expect(typeof done.result?.statistics.sharpe).toBe('number');
      expect(done.result?.survivors).not.toBeNull();
      expect(done.problems).toEqual([]);
    }, 120_000);

    it('opens a rebalance, pages the lists and reports bad view parameters with a 400 but still shows the result', async () => {
      const open = (await load(`/backtest?backtest_id=${doneId}&rebalance=2`)).value as Page;
      expect(open.result?.openRebalance?.n).toBe(2);
      // The first rebalances can find no passers (6-month returns need six months of prices).
      const n = (open.result?.rebalances.rows ?? []).find((r) => r.holdingCount > 0)?.n ?? 0;
      const held = (await load(`/backtest?backtest_id=${doneId}&rebalance=${n}`)).value as Page;
      expect(held.result?.openRebalance?.n).toBe(n);
      expect(held.result?.openRebalance?.holdings.length).toBeGreaterThan(0);
      expect(held.result?.openRebalance?.metrics).toEqual(expect.arrayContaining(['price', 'ret_6m']));
      expect(held.result?.openRebalance?.holdings.every((h) => typeof h.values.ret_6m === 'number')).toBe(true);
      const huge = await load(`/backtest?backtest_id=${doneId}&trades_page=999999999&rebalances_page=999999`);
      expect(huge.status).toBe(200);
      expect((huge.value as Page).result?.trades.page).toBe(Math.ceil(((huge.value as Page).result?.trades.total ?? 0) / 100));
      const bad = await load(`/backtest?backtest_id=${doneId}&scale=sideways&rebalance=100000&trades_page=-4`);
      expect(bad.status).toBe(400);
      const v = bad.value as Page;
      expect(v.result).not.toBeNull();
      expect(v.problems).toHaveLength(3);
      expect(v.problems.join(' ')).toMatch(/There is no rebalance 100000/);
    });

    it('downloads each table as CSV for its owner, and answers bad requests with a 4xx', async () => {
      const csv = (query: string, cookie = a.cookie) => callPage(csvRoute.loader, `/backtest/csv?${query}`, cookie);
      const heads: Record<string, string> = {
        curves: 'date,equity,benchmark,drawdown,survivors_equity',
        holdings: 'rebalance,signal_date,trade_date,permaticker,ticker,weight,rank',
        trades: 'date,permaticker,ticker,side,reason,value,price,shares,cost',
        monthly: 'year,jan,feb,mar,apr,may,jun,jul,aug,sep,oct,nov,dec,year_return',
      };
      for (const [table, head] of Object.entries(heads)) {
        const r = await csv(`backtest_id=${doneId}&table=${table}`);
        expect([table, r.status]).toEqual([table, 200]);
        expect(r.headers?.get('Content-Type')).toContain('text/csv');
        const lines = r.text.trim().split('\r\n');
        expect(lines[0].startsWith(head)).toBe(true);
        expect(lines.length).toBeGreaterThan(1);
      }
      const curves = (await csv(`backtest_id=${doneId}&table=curves`)).text.trim().split('\r\n');
      expect(Number(curves[1].split(',')[1])).toBe(10_000);
      expect((await csv(`backtest_id=${doneId}&table=passwords`)).status).toBe(400);
      expect((await csv(`backtest_id=${doneId}`)).status).toBe(400);
      expect((await csv('table=curves')).status).toBe(400);
      expect((await csv(`backtest_id=${doneId}&token=abcdefghijkl&table=curves`)).status).toBe(400);
      expect((await csv(`backtest_id=${doneId}&table=curves`, b.cookie)).status).toBe(404);
      expect((await csv('backtest_id=..%2F..&table=curves')).status).toBe(404);
      const [cancelled] = (await listBacktests(a.id)).filter((x) => x.status === 'cancelled');
      const unfinished = await csv(`backtest_id=${cancelled.id}&table=trades`);
      expect(unfinished.status).toBe(409);
      expect(unfinished.text).toContain('has not finished');
    });

    it('shares a read-only link that another account can open, with its CSV, until sharing stops', async () => {
      expect((await post(`/backtest?backtest_id=${doneId}`, { intent: 'share', id: doneId }, b.cookie)).status).toBe(404);
      expect((await post(`/backtest?backtest_id=${doneId}`, { intent: 'share', id: doneId })).status).toBe(302);
      const token = ((await load(`/backtest?backtest_id=${doneId}`)).value as Page).backtest.shareToken ?? '';
      expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      const shared = await callPage(sharedRoute.loader, `/backtest/shared/${token}?rebalance=1&scale=log`, b.cookie, { params: { token } });
      expect(shared.status).toBe(200);
      const v = shared.value as Page;
      expect(v.result?.openRebalance?.n).toBe(1);
      expect(v.backtest.shareToken).toBeNull();
      expect(v.backtest.screenerId).toBeNull();
      const csv = await callPage(csvRoute.loader, `/backtest/csv?token=${token}&table=trades`, b.cookie);
      expect(csv.status).toBe(200);
      for (const bad of ['nope', 'x'.repeat(300), '%3Cscript%3E', `${token}x`]) {
        expect(
          (await callPage(sharedRoute.loader, `/backtest/shared/${bad}`, b.cookie, { params: { token: decodeURIComponent(bad) } })).status,
        ).toBe(404);
      }
      await post(`/backtest?backtest_id=${doneId}`, { intent: 'unshare', id: doneId });
      expect((await callPage(sharedRoute.loader, `/backtest/shared/${token}`, b.cookie, { params: { token } })).status).toBe(404);
      expect((await callPage(csvRoute.loader, `/backtest/csv?token=${token}&table=trades`, b.cookie)).status).toBe(404);
    });

    it('lists backtests on /screener/manage and deletes through the confirm modal; B gets 404', async () => {
      const manage = (await callPage(manageRoute.loader, '/screener/manage', a.cookie)).value as { backtests: { id: string }[] };
      expect(manage.backtests.map((x) => x.id)).toContain(doneId);
      expect(((await callPage(manageRoute.loader, '/screener/manage', b.cookie)).value as { backtests: unknown[] }).backtests).toEqual([]);

      const path = `/backtest?screener_id=${screenerId}`;
      const modal = ((await load(`${path}&modal=delete&id=${doneId}`)).value as Page).modal;
      expect(modal).toMatchObject({ kind: 'confirm', action: path, fields: { intent: 'delete', id: doneId } });
      expect((await load(`${path}&modal=delete&id=${doneId}`, b.cookie)).status).toBe(404);
      expect((await load(`/backtest?backtest_id=${doneId}&modal=delete`, b.cookie)).status).toBe(404);
      expect((await post(path, { intent: 'delete', id: doneId, confirmed: 'true', cancelled: 'false' }, b.cookie)).status).toBe(404);

      const cancelled = await post(path, { intent: 'delete', id: doneId, confirmed: 'false', cancelled: 'true' });
      expect(cancelled).toMatchObject({ status: 302, location: path });
      expect((await getBacktest(a.id, doneId)).id).toBe(doneId);

      const deleted = await post(path, { intent: 'delete', id: doneId, confirmed: 'true', cancelled: 'false' });
      expect(deleted).toMatchObject({ status: 302, location: path });
      expect((await load(`/backtest?backtest_id=${doneId}`)).status).toBe(404);
      expect((await listBacktests(a.id)).map((x) => x.id)).not.toContain(doneId);
    });
  },
  { env: { MARKET_DB: market.file, REDIS_URL: undefined } },
);

import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as backtestsRoute from '~/routes/api.v1.backtests';
import * as backtestRoute from '~/routes/api.v1.backtests.$id';
import * as rebalanceRoute from '~/routes/api.v1.backtests.$id.rebalances.$n';
import * as tradesRoute from '~/routes/api.v1.backtests.$id.trades';
import * as holdingsRoute from '~/routes/api.v1.backtests.$id.holdings';
import { APP_JOBS } from '~/services/app-jobs.server';
import { issueUserToken } from '~/services/auth/tokens.server';
import { createUser } from '~/services/auth/users.server';
import { getBacktest, getSharedBacktest, setBacktestShared } from '~/services/backtest/backtests.server';
import { computeProcessReady } from '~/services/backtest/compute-process.server';
import { getDb } from '~/services/db/db.server';
import { jsonWithoutFloatNoise } from '~/services/http/numbers';
import { closeJobQueue, startJobWorker, type JobWorker } from '~/services/jobs/queue.server';
import { createScreener } from '~/services/screener/saved.server';
import { ruleFromText, ScreenSchema } from '~/services/screener/model';
import { callRoute } from '../support/api';
import { testMarket } from '../support/backtest-market';
import { until } from '../support/until';
import { forEachDatabase } from '../support/databases';

// Backtests through the JSON API on SQLite and PostgreSQL, run by this process's polling worker
// against a real DuckDB demo market: queued → running → succeeded, the stored result, its
// reproducibility, ownership, cancel, delete and hostile input.

const market = testMarket();
beforeAll(() => market.build(), 120_000);
afterAll(() => market.remove());

const screen = ScreenSchema.parse({
  rules: [ruleFromText('price > 1'), ruleFromText('ret_6m in top 50% of universe')],
  ranking: [{ metric: 'ret_6m', direction: 'desc', weight: 1 }],
});
const params = { start: '2021-01-04', end: '2023-12-29', rebalance: 'monthly', topN: 10, commissionBps: 5, slippageBps: 5 };

type Json = Record<string, unknown> & {
  id: string;
  status: string;
  result: Record<string, unknown> & { equity: number[]; statistics: Record<string, number> };
};

forEachDatabase(
  'backtest API',
  () => {
    let token: string;
    let otherToken: string;
    let screenerId: string;
    let userId: string;
    let worker: JobWorker | null = null;
    const get = (id: string, t = token, headers?: Record<string, string>) =>
      callRoute(backtestRoute, { path: `/api/v1/backtests/${encodeURIComponent(id)}`, token: t, params: { id }, headers });
    const cancel = (id: string) =>
      callRoute(backtestRoute, { method: 'PATCH', token, json: { cancel: true }, params: { id }, path: `/api/v1/backtests/${id}` });
    /** POSTs the saved screener's backtest with `Prefer: wait=N`: its answer's status, headers and backtest. */
    const postWaiting = async (seconds: number) => {
      const created = await callRoute(backtestsRoute, {
        token,
        json: { screener_id: screenerId, params },
        headers: { Prefer: `wait=${seconds}` },
      });
      const body = created.body as Json;
      expect(created.headers.get('Preference-Applied')).toBe(`wait=${seconds}`);
      expect(created.headers.get('Location')).toBe(`/api/v1/backtests/${body.id}`);
      return { status: created.status, body };
    };
    const finished = async (id: string) => {
      let last: Json | undefined;
      await until(async () => {
        last = (await get(id)).body as Json;
        return ['succeeded', 'failed', 'cancelled'].includes(last.status);
      }, `backtest ${id}`);
      return last!;
    };

    beforeAll(async () => {
      const a = await createUser({ email: 'bt-a@example.com', full_name: 'Ann Test', password: 'correct horse 1', access: true });
      const b = await createUser({ email: 'bt-b@example.com', full_name: 'Bob Test', password: 'correct horse 1', access: true });
      userId = a.id;
      token = (await issueUserToken(a.id)).access_token;
      otherToken = (await issueUserToken(b.id)).access_token;
      screenerId = (await createScreener(a.id, { name: 'Momentum', screen })).id;
    });
    afterAll(async () => {
      await worker?.stop();
      await closeJobQueue();
    });

    it('with Prefer: respond-async, queues a backtest (202 at once), which stays queued without a worker and can be cancelled', async () => {
      const created = await callRoute(backtestsRoute, {
        token,
        json: { screener_id: screenerId, params },
        headers: { Prefer: 'respond-async' },
      });
      expect(created.status).toBe(202);
      expect(created.headers.get('Preference-Applied')).toBe('respond-async');
      const body = created.body as Json;
      expect(body.status).toBe('queued');
      expect(body.result).toBeNull();
      // No result yet: no trades or holdings to page through.
      for (const early of [
        await callRoute(tradesRoute, { token, params: { id: body.id }, path: `/api/v1/backtests/${body.id}/trades` }),
        await callRoute(rebalanceRoute, { token, params: { id: body.id, n: '1' }, path: `/api/v1/backtests/${body.id}/rebalances/1` }),
        await callRoute(holdingsRoute, { token, params: { id: body.id }, path: `/api/v1/backtests/${body.id}/holdings` }),
      ]) {
        expect(early.status).toBe(409);
        expect((early.body as { detail: string }).detail).toBe('This backtest has no result: it is queued.');
      }
      expect(created.headers.get('Location')).toBe(`/api/v1/backtests/${body.id}`);
      const cancelled = await cancel(body.id);
      expect(cancelled.status).toBe(200);
      expect((cancelled.body as Json).status).toBe('cancelled');
    });

    it('with Prefer: wait, answers once the wait is over when no worker runs it: still queued (202), the preference applied', async () => {
      const { status, body } = await postWaiting(1);
      expect(status).toBe(202);
      expect(body.status).toBe('queued');
      const polled = await get(body.id, token, { Prefer: 'wait=1' });
      expect(polled.status).toBe(200);
      expect(polled.headers.get('Preference-Applied')).toBe('wait=1');
      expect((polled.body as Json).status).toBe('queued');
      const cancelled = await cancel(body.id);
      expect((cancelled.body as Json).status).toBe('cancelled');
    });

    it('runs on a worker to a stored, self-consistent result, which the POST answers (201) when the run ends within its default wait', async () => {
      worker = startJobWorker(APP_JOBS);
      // As on a server that has been up a moment: its compute process started (on a loaded
      // machine, starting one can take a good part of the POST's 10 s by itself).
      await computeProcessReady();
      const created = await callRoute(backtestsRoute, { token, json: { screener_id: screenerId, params, name: 'Momentum top 10' } });
      expect(created.status).toBe(201);
      expect(created.headers.get('Preference-Applied')).toBeNull();
      expect(created.headers.get('Location')).toBe(`/api/v1/backtests/${(created.body as Json).id}`);
      const done = await finished((created.body as Json).id);
      expect(JSON.stringify(created.body)).toBe(JSON.stringify(done));
      expect(done.status, String(done.error)).toBe('succeeded');
      expect(done.name).toBe('Momentum top 10');
      expect(done.engine_version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(typeof done.snapshot_id).toBe('string');
      const r = done.result;
      const eq = r.equity;
      const s = r.statistics;
      expect(eq[0]).toBe(10_000);
      // The API writes 12 significant digits (no float noise), so the recomputed return agrees to ~1e-11.
      expect(s.totalReturn).toBeCloseTo(eq[eq.length - 1] / eq[0] - 1, 10);
      expect(s.startDate).toBe((r.dates as string[])[0]);
      // One rebalance per month-end signal in the range (the last month-end has no next day to trade).
      const months = new Set((r.dates as string[]).map((d) => d.slice(0, 7)));
      expect((r.rebalances as unknown[]).length).toBeGreaterThanOrEqual(months.size - 2);
      expect((r.rebalances as unknown[]).length).toBeLessThanOrEqual(months.size);
      expect(r.trades_total).toBeGreaterThan(0);
      expect(r.holdings_total).toBe((r.rebalances as { holding_count: number }[]).reduce((n, b) => n + b.holding_count, 0));
      // The rows have their own pages: the answer stays small however long the run.
      expect(r).not.toHaveProperty('trades');
      expect(r.rebalances as object[]).not.toContainEqual(expect.objectContaining({ holdings: expect.anything() }));
      const survivors = r.survivors as { statistics: { totalReturn: number }; securities: number; delistedExcluded: number } | null;
      expect(survivors).not.toBeNull();
      expect(survivors!.delistedExcluded).toBeGreaterThan(0);
      expect(typeof survivors!.statistics.totalReturn).toBe('number');
      expect((done.summary as { totalReturn: number }).totalReturn).toBe(s.totalReturn);
    }, 120_000);

    it('with Prefer: wait, answers the finished backtest with its result (201), as GET has it', async () => {
      const { status, body } = await postWaiting(30);
      expect(status).toBe(201);
      expect(body.status).toBe('succeeded');
      expect(body.result.equity.length).toBeGreaterThan(500);
      expect(JSON.stringify(body)).toBe(JSON.stringify((await get(body.id)).body));
      // A wait on a backtest whose run has ended answers at once.
      const again = await get(body.id, token, { Prefer: 'wait=30' });
      expect(again.status).toBe(200);
      expect(JSON.stringify(again.body)).toBe(JSON.stringify(body));
      // Another user's backtest stays a 404, waiting or not.
      const theirs = await get(body.id, otherToken, { Prefer: 'wait=5' });
      expect(theirs.status).toBe(404);
    });

    it('answers a client that polls from the light part the run handed over, without reading the stored one', async () => {
      const reference = await postWaiting(30);
      expect(reference.body.status).toBe('succeeded');
      const created = await callRoute(backtestsRoute, {
        token,
        json: { screener_id: screenerId, params },
        headers: { Prefer: 'respond-async' },
      });
      const id = (created.body as Json).id;
      // The run watched in the database alone (no read of its result) until it is stored and done.
      const db = await getDb();
      await until(async () => {
        const row = await db
          .selectFrom('backtests')
          .innerJoin('jobs', 'jobs.id', 'backtests.job_id')
          .select(['backtests.parts_key', 'jobs.status'])
          .where('backtests.id', '=', id)
          .executeTakeFirst();
        return row?.parts_key != null && row.status === 'succeeded';
      }, `backtest ${id}`);
      // The stored light part damaged: the first GET is answered from what the run handed over.
      await db.updateTable('backtests').set({ result: 'damaged' }).where('id', '=', id).execute();
      const polled = await get(id);
      expect(polled.status).toBe(200);
      expect((polled.body as Json).status).toBe('succeeded');
      expect(JSON.stringify((polled.body as Json).result)).toBe(JSON.stringify(reference.body.result));
    }, 120_000);

    it('compresses the answer of a waiting POST or GET as the client accepts it, reading back as the plain answer', async () => {
      const call = async (mod: typeof backtestsRoute | typeof backtestRoute, init: RequestInit, path: string, id = '') => {
        const headers = new Headers(init.headers);
        headers.set('Authorization', `bearer ${token}`);
        const fn = (init.method === 'POST' ? mod.action : mod.loader) as (a: unknown) => Promise<Response>;
        return fn({ request: new Request(`http://localhost${path}`, { ...init, headers }), params: { id }, context: {} });
      };
      const post = (accept: string) =>
        call(
          backtestsRoute,
          {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Accept-Encoding': accept },
            body: JSON.stringify({ screener_id: screenerId, params }),
          },
          '/api/v1/backtests',
        );
      const gzipped = await post('gzip, deflate');
      expect(gzipped.status).toBe(201);
      expect(gzipped.headers.get('Content-Encoding')).toBe('gzip');
      expect(gzipped.headers.get('Vary')).toContain('Accept-Encoding');
      const packed = Buffer.from(await gzipped.arrayBuffer());
      expect(gzipped.headers.get('Content-Length')).toBe(String(packed.length));
      const body = JSON.parse(gunzipSync(packed).toString('utf8')) as Json;
      expect(body.status).toBe('succeeded');
      expect(JSON.stringify(body)).toBe(JSON.stringify((await get(body.id)).body));
      // brotli on a tie, as the server's own compression chooses; as it is for a client that takes neither.
      const waited = await call(
        backtestRoute,
        { headers: { Prefer: 'wait=5', 'Accept-Encoding': 'gzip, br' } },
        `/api/v1/backtests/${body.id}`,
        body.id,
      );
      expect(waited.headers.get('Content-Encoding')).toBe('br');
      expect(JSON.parse(brotliDecompressSync(Buffer.from(await waited.arrayBuffer())).toString('utf8'))).toEqual(body);
      const plain = await post('identity');
      expect(plain.status).toBe(201);
      expect(plain.headers.get('Content-Encoding')).toBeNull();
      expect(((await plain.json()) as Json).status).toBe('succeeded');
    });

    describe('the trade log and the holdings, page by page', () => {
      const trades = (id: string, query = '', t = token) =>
        callRoute(tradesRoute, { token: t, params: { id }, path: `/api/v1/backtests/${encodeURIComponent(id)}/trades${query}` });
      const holdings = (id: string, query = '', t = token) =>
        callRoute(holdingsRoute, { token: t, params: { id }, path: `/api/v1/backtests/${encodeURIComponent(id)}/holdings${query}` });
      const rebalance = (id: string, n: string, t = token) =>
        callRoute(rebalanceRoute, { token: t, params: { id, n }, path: `/api/v1/backtests/${id}/rebalances/${n}` });
      type Page = { total: number; offset: number; limit: number; next: string | null; trades: Json[] };
      let done: Json;
      beforeAll(async () => {
        const created = await callRoute(backtestsRoute, { token, json: { screener_id: screenerId, params } });
        done = await finished((created.body as Json).id);
        expect(done.status).toBe('succeeded');
      }, 120_000);

      it('gives every trade of the log once, in order, following `next` from page to page', async () => {
        const total = done.result.trades_total as number;
        const stored = await (await getBacktest(userId, done.id, { withResult: true })).result!.rows.tradeSlice(0, total);
        const pages: Page[] = [];
        let path: string | null = `?limit=7`;
        while (path !== null) {
          const answer = await trades(done.id, path.replace(/^.*\/trades/, ''));
          expect(answer.status, answer.text).toBe(200);
          const page = answer.body as Page;
          pages.push(page);
          path = page.next;
        }
        expect(pages.length).toBe(Math.ceil(total / 7));
        expect(pages.every((p) => p.total === total && p.limit === 7)).toBe(true);
        expect(pages.map((p) => p.offset)).toEqual(pages.map((_, i) => i * 7));
        const all = pages.flatMap((p) => p.trades);
        expect(all.length).toBe(total);
        // As the API writes every number: to 12 significant digits (numbers.ts).
        expect(all).toEqual(JSON.parse(JSON.stringify(stored, jsonWithoutFloatNoise)));
        // One page of the default size holds them all here, the same rows.
        const whole = (await trades(done.id)).body as Page;
        expect(whole).toMatchObject({ total, offset: 0, limit: 1000, next: null });
        expect(whole.trades).toEqual(all);
      });

      it('gives each rebalance with its holdings, numbered from 1 as on the page', async () => {
        const summaries = done.result.rebalances as (Json & { holding_count: number })[];
        let rows = 0;
        for (const [i, summary] of summaries.entries()) {
          const answer = await rebalance(done.id, String(i + 1));
          expect(answer.status, answer.text).toBe(200);
          const b = answer.body as Json & { holdings: Json[] };
          expect(b).toMatchObject(summary);
          expect(b.holdings.length).toBe(summary.holding_count);
          rows += b.holdings.length;
        }
        expect(rows).toBe(done.result.holdings_total);
        expect(rows).toBeGreaterThan(0);
        const past = await rebalance(done.id, String(summaries.length + 1));
        expect(past.status).toBe(404);
        expect((past.body as { detail: string }).detail).toBe(
          `There is no rebalance ${summaries.length + 1}: this backtest has ${summaries.length}.`,
        );
      });

      it.each([
        ['a negative offset', '?offset=-1'],
        ['a limit of 0', '?limit=0'],
        ['a limit over 10,000', '?limit=10001'],
        ['an offset that is not a number', '?offset=abc'],
        ['a fractional limit', '?limit=2.5'],
      ])('refuses %s with 422 and says which parameter', async (_what, query) => {
        for (const answer of [await trades(done.id, query), await holdings(done.id, query)]) {
          expect(answer.status).toBe(422);
          const body = answer.body as { detail: string; errors: Record<string, string[]> };
          expect(body.detail).toBe('Invalid query parameters.');
          expect(Object.keys(body.errors)).toEqual([query.slice(1).split('=')[0]]);
        }
      });

      it('reads empty parameters as absent and leaves others alone (a cache-buster)', async () => {
        const answer = await trades(done.id, '?offset=&limit=&_=123');
        expect(answer.status, answer.text).toBe(200);
        expect(answer.body).toMatchObject({ offset: 0, limit: 1000 });
      });

      it('gives every holding row once, rebalance by rebalance, as the rebalances have them', async () => {
        const summaries = done.result.rebalances as (Json & { holding_count: number })[];
        const expected: Json[] = [];
        for (const [i, summary] of summaries.entries()) {
          const b = (await rebalance(done.id, String(i + 1))).body as Json & { holdings: Json[] };
          for (const h of b.holdings)
            expected.push({ rebalance: i + 1, signalDate: summary.signalDate, tradeDate: summary.tradeDate, ...h });
        }
        const rows: Json[] = [];
        let path: string | null = '?limit=13';
        while (path !== null) {
          const answer = await holdings(done.id, path.replace(/^.*\/holdings/, ''));
          expect(answer.status, answer.text).toBe(200);
          const page = answer.body as { total: number; next: string | null; holdings: Json[] };
          expect(page.total).toBe(done.result.holdings_total);
          rows.push(...page.holdings);
          path = page.next;
        }
        expect(rows).toEqual(expected);
        expect((await holdings(done.id, `?offset=${rows.length}`)).body).toMatchObject({ next: null, holdings: [] });
      });

      it('answers past the end with no trades, and refuses rebalance numbers that are not 1, 2, …', async () => {
        const total = done.result.trades_total as number;
        expect((await trades(done.id, `?offset=${total + 5}`)).body).toMatchObject({ total, offset: total + 5, next: null, trades: [] });
        for (const n of ['0', '-1', 'abc', '1.5', '99999999999']) expect((await rebalance(done.id, n)).status, n).toBe(404);
      });

      it('hides another user’s backtest (404) and answers 401 without a token', async () => {
        expect((await trades(done.id, '', otherToken)).status).toBe(404);
        expect((await holdings(done.id, '', otherToken)).status).toBe(404);
        expect((await rebalance(done.id, '1', otherToken)).status).toBe(404);
        const id = done.id;
        expect((await callRoute(tradesRoute, { params: { id }, path: `/api/v1/backtests/${id}/trades` })).status).toBe(401);
        expect((await callRoute(rebalanceRoute, { params: { id, n: '1' }, path: `/api/v1/backtests/${id}/rebalances/1` })).status).toBe(
          401,
        );
      });
    });

    it('gives bit-identical numbers for the same inputs', async () => {
      const one = await finished(((await callRoute(backtestsRoute, { token, json: { screen, params } })).body as Json).id);
      const two = await finished(((await callRoute(backtestsRoute, { token, json: { screener_id: screenerId, params } })).body as Json).id);
      expect(one.status).toBe('succeeded');
      expect(JSON.stringify(one.result)).toBe(JSON.stringify(two.result));
    }, 120_000);

    it('lists the caller’s backtests, by screener too, and hides them from others (404)', async () => {
      const mine = (await callRoute(backtestsRoute, { token, path: `/api/v1/backtests?screener_id=${screenerId}` })).body as Json[];
      expect(mine.length).toBeGreaterThanOrEqual(3);
      expect(mine.every((b) => b.screener_id === screenerId)).toBe(true);
      const all = (await callRoute(backtestsRoute, { token, path: '/api/v1/backtests' })).body as Json[];
      expect(all.length).toBeGreaterThan(mine.length);
      expect((await callRoute(backtestsRoute, { token: otherToken, path: '/api/v1/backtests' })).body).toEqual([]);
      const id = mine[0].id;
      expect((await get(id, otherToken)).status).toBe(404);
      const del = await callRoute(backtestRoute, { method: 'DELETE', token: otherToken, params: { id }, path: `/api/v1/backtests/${id}` });
      expect(del.status).toBe(404);
      expect((await get(id)).status).toBe(200);
    });

    it('shares a read-only link and deletes (204, then 404)', async () => {
      const id = ((await callRoute(backtestsRoute, { token, path: '/api/v1/backtests' })).body as Json[]).find(
        (b) => b.status === 'succeeded',
      )!.id;
      const patched = await callRoute(backtestRoute, {
        method: 'PATCH',
        token,
        json: { shared: true },
        params: { id },
        path: `/api/v1/backtests/${id}`,
      });
      const shareToken = (patched.body as Json).share_token as string;
      expect(shareToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect((await getSharedBacktest(shareToken)).id).toBe(id);
      const ownerId = ((await callRoute(backtestRoute, { token, params: { id }, path: `/api/v1/backtests/${id}` })).body as Json).id;
      expect(ownerId).toBe(id);
      const del = await callRoute(backtestRoute, { method: 'DELETE', token, params: { id }, path: `/api/v1/backtests/${id}` });
      expect(del.status).toBe(204);
      expect((await get(id)).status).toBe(404);
      await expect(getSharedBacktest(shareToken)).rejects.toMatchObject({ status: 404 });
      await expect(setBacktestShared('nobody', id, true)).rejects.toMatchObject({ status: 404 });
    });

    describe('the stored-result limit', () => {
      const withLimit = async <T>(bytes: number, run: () => Promise<T>): Promise<T> => {
        process.env.QUARRY_TEST_MAX_RESULT_BYTES = String(bytes);
        try {
          return await run();
        } finally {
          delete process.env.QUARRY_TEST_MAX_RESULT_BYTES;
        }
      };

      it('refuses a run estimated over the limit before it starts (422, the detail names the limit)', async () => {
        const before = ((await callRoute(backtestsRoute, { token, path: '/api/v1/backtests' })).body as Json[]).length;
        const a = await withLimit(100_000, () =>
          callRoute(backtestsRoute, { token, json: { screen, params: { ...params, rebalance: 'daily', topN: 50 } } }),
        );
        expect(a.status).toBe(422);
        expect((a.body as { detail: string }).detail).toMatch(
          /^This backtest's result would take about [\d,.]+ (MB|bytes) to store; the limit is 100,000 bytes per stored backtest result\./,
        );
        // Nothing was queued.
        expect(((await callRoute(backtestsRoute, { token, path: '/api/v1/backtests' })).body as Json[]).length).toBe(before);
      });

      it('fails a run whose encoded result is still over the limit, with the same message, and stores nothing', async () => {
        worker ??= startJobWorker(APP_JOBS);
        // Small enough for the estimate (a few positions), smaller than the curves the result keeps.
        const done = await withLimit(2_000, async () => {
          // The limit is the compute process's environment: a new one starts with it.
          await computeProcessReady();
          const created = await callRoute(backtestsRoute, { token, json: { screen, params: { ...params, topN: 2 } } });
          // The run ended (failed) within the POST's default wait: the backtest exists, with its error.
          expect(created.status).toBe(201);
          expect(created.body).toEqual(await finished((created.body as Json).id));
          return created.body as Json;
        });
        expect(done.status).toBe('failed');
        expect(done.error).toMatch(
          /^This backtest's result would take [\d,]+ bytes to store; the limit is 2,000 bytes per stored backtest result\./,
        );
        expect(done.result).toBeNull();
        expect(done.summary).toBeNull();
      }, 120_000);
    });

    describe('hostile input', () => {
      const post = (json: unknown) => callRoute(backtestsRoute, { token, json });
      it.each([
        ['both a screener and a screen', { screener_id: 'x', screen, params }, 422],
        ['neither', { params }, 422],
        ['an unknown field', { screen, params, evil: 1 }, 422],
        ['params that are not an object', { screen, params: 'monthly' }, 422],
      ])('refuses %s with 422', async (_what, json, status) => {
        const a = await post(json);
        expect(a.status).toBe(status);
        expect((a.body as { detail: string }).detail).toBeTruthy();
      });
      it.each([
        ['a reversed range', { ...params, start: '2023-01-01', end: '2022-01-01' }, 'The end date is after the start date'],
        ['top N of 0', { ...params, topN: 0 }, 'Top N is'],
        ['an unknown rebalance', { ...params, rebalance: 'hourly' }, 'Rebalance is one of'],
        ['a non-date', { ...params, start: '2021-13-45' }, 'is not a date'],
        ['negative costs', { ...params, commissionBps: -1 }, 'cannot be negative'],
        ['dates outside the data', { ...params, start: '1990-01-01', end: '1991-01-01' }, 'outside the market data'],
      ])('answers %s with 422 and the field message', async (_what, p, message) => {
        const a = await post({ screen, params: p });
        expect(a.status).toBe(422);
        expect(JSON.stringify(a.body)).toContain(message);
      });
      it('answers an invalid screen with 422 and an unknown screener with 404', async () => {
        expect((await post({ screen: { rules: [{ kind: 'value', metric: 'no_such_metric', op: '>', value: 1 }] }, params })).status).toBe(
          422,
        );
        expect((await post({ screener_id: '00000000-0000-0000-0000-000000000000', params })).status).toBe(404);
      });
      it('answers malformed JSON with 400, a bad id with 404, a bad screener filter with 400, no token with 401', async () => {
        const raw = await callRoute(backtestsRoute, { token, body: '{"params":', headers: { 'Content-Type': 'application/json' } });
        expect(raw.status).toBe(400);
        expect((await get('../../etc/passwd')).status).toBe(404);
        expect((await callRoute(backtestsRoute, { token, path: '/api/v1/backtests?screener_id=%27%20OR%201%3D1' })).status).toBe(400);
        expect((await callRoute(backtestsRoute, { path: '/api/v1/backtests' })).status).toBe(401);
        expect((await callRoute(backtestRoute, { method: 'PUT', token, params: { id: 'x' }, path: '/api/v1/backtests/x' })).status).toBe(
          405,
        );
      });
    });
  },
  { env: { MARKET_DB: market.file, REDIS_URL: undefined } },
);

import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as runRoute from '~/routes/api.v1.screener.run';
import * as screenersRoute from '~/routes/api.v1.screeners';
import * as screenerRoute from '~/routes/api.v1.screeners.$id';
import { issueGuestToken, issueUserToken } from '~/services/auth/tokens.server';
import { createUser } from '~/services/auth/users.server';
import {
  duplicateScreener,
  getSharedScreener,
  listScreeners,
  recordScreenerRun,
  setScreenerShared,
} from '~/services/screener/saved.server';
import { ScreenSchema, ruleFromText } from '~/services/screener/model';
import { callRoute } from '../support/api';
import { forEachDatabase } from '../support/databases';
import { syntheticMarketForSuite } from '../support/synthetic-market';

// Saved screeners and the run endpoint through their JSON API routes, on SQLite and PostgreSQL,
// against a real DuckDB market file built from a synthetic universe.

const { dir: marketDir, marketDb, securities } = syntheticMarketForSuite('screener-market', { securities: 40, years: 3, seed: 5 });

const screen = ScreenSchema.parse({
  rules: [ruleFromText('price > 0'), ruleFromText('ret_3m in top 50% of universe')],
  ranking: [{ metric: 'ret_3m', direction: 'desc', weight: 1 }],
});

forEachDatabase(
  'screener API',
  () => {
    let a: string;
    let b: string;
    let aId: string;
    beforeAll(async () => {
      const ua = await createUser({ email: 'a@example.com', password: 'correct horse battery', full_name: 'User A', access: true });
      const ub = await createUser({ email: 'b@example.com', password: 'correct horse battery', full_name: 'User B', access: true });
      aId = ua.id;
      a = (await issueUserToken(ua.id)).access_token;
      b = (await issueUserToken(ub.id)).access_token;
    });

    it('creates, lists, reads, renames, shares and deletes a screener', async () => {
      const created = await callRoute(screenersRoute, { token: a, json: { name: '  Momentum ', screen } });
      expect(created.status).toBe(201);
      const body = created.body as { id: string; name: string; screen: unknown; share_token: null };
      expect(body).toMatchObject({ name: 'Momentum', screen, share_token: null });
      const list = await callRoute(screenersRoute, { token: a });
      expect((list.body as { id: string }[]).map((s) => s.id)).toEqual([body.id]);
      const one = await callRoute(screenerRoute, { token: a, params: { id: body.id } });
      expect(one.body).toMatchObject({ id: body.id, name: 'Momentum' });
      const patched = await callRoute(screenerRoute, {
        token: a,
        method: 'PATCH',
        params: { id: body.id },
        json: { name: 'Trend', shared: true },
      });
      expect(patched.status).toBe(200);
      const token = (patched.body as { share_token: string }).share_token;
      expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect(await getSharedScreener(token)).toEqual({ name: 'Trend', screen });
      const deleted = await callRoute(screenerRoute, { token: a, method: 'DELETE', params: { id: body.id } });
      expect(deleted.status).toBe(204);
      expect((await callRoute(screenerRoute, { token: a, params: { id: body.id } })).status).toBe(404);
      await expect(getSharedScreener(token)).rejects.toMatchObject({ status: 404 });
    });

    it('user B gets 404 for every one of A’s screeners, and never sees them listed', async () => {
      const created = await callRoute(screenersRoute, { token: a, json: { name: 'Private', screen } });
      const id = (created.body as { id: string }).id;
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const answer = await callRoute(screenerRoute, {
          token: b,
          method,
          params: { id },
          ...(method === 'PATCH' ? { json: { name: 'Stolen' } } : {}),
        });
        expect([method, answer.status, answer.body]).toEqual([method, 404, { detail: 'Screener not found.' }]);
      }
      expect((await callRoute(screenersRoute, { token: b })).body).toEqual([]);
      expect((await callRoute(screenerRoute, { token: a, params: { id } })).body).toMatchObject({ name: 'Private' });
      await expect(duplicateScreener('someone-else', id)).rejects.toMatchObject({ status: 404 });
    });

    it('duplicates and records runs on the owner’s copy only', async () => {
      const created = await callRoute(screenersRoute, { token: a, json: { name: 'Base', screen } });
      const id = (created.body as { id: string }).id;
      const copy = await duplicateScreener(aId, id);
      expect(copy).toMatchObject({ name: 'Base (copy)', screen });
      await recordScreenerRun(aId, id, 17, new Date('2026-01-02T03:04:05Z'));
      const listed = await listScreeners(aId);
      expect(listed.find((s) => s.id === id)).toMatchObject({ lastRunAt: '2026-01-02T03:04:05.000Z', lastMatchCount: 17 });
      expect(listed.find((s) => s.id === copy.id)?.lastMatchCount).toBeNull();
      expect((await setScreenerShared(aId, id, false)).shareToken).toBeNull();
    });

    it('answers hostile input with 4xx and a detail', async () => {
      const cases: [string, Parameters<typeof callRoute>[1], number][] = [
        ['no token', { json: { name: 'x', screen } }, 401],
        ['guest', { token: issueGuestToken().access_token, json: { name: 'x', screen } }, 403],
        ['not JSON', { token: a, body: '{"name":', headers: { 'Content-Type': 'application/json' } }, 400],
        ['XML', { token: a, body: '<x/>', headers: { 'Content-Type': 'application/xml' } }, 415],
        ['array body', { token: a, json: [1, 2] }, 422],
        ['empty name', { token: a, json: { name: '   ', screen } }, 422],
        [
          'unknown metric',
          { token: a, json: { name: 'x', screen: { rules: [{ kind: 'value', metric: 'revnue', op: '<', value: 1 }] } } },
          422,
        ],
        ['bad expression', { token: a, json: { name: 'x', screen: { rules: [{ kind: 'expr', expr: '(revnue - 1 > 2' }] } } }, 422],
        [
          'deep expression',
          { token: a, json: { name: 'x', screen: { rules: [{ kind: 'expr', expr: `${'('.repeat(200)}price${')'.repeat(200)} > 1` }] } } },
          422,
        ],
        ['wrong version', { token: a, json: { name: 'x', screen: { v: 9 } } }, 422],
        [
          '10,000 rules',
          {
            token: a,
            json: {
              name: 'x',
              screen: { rules: Array.from({ length: 10_000 }, () => ({ kind: 'value', metric: 'price', op: '>', value: 1 })) },
            },
          },
          413,
        ],
        [
          '600 small rules',
          {
            token: a,
            json: {
              name: 'x',
              screen: { rules: Array.from({ length: 600 }, () => ({ kind: 'value', metric: 'price', op: '>', value: 1 })) },
            },
          },
          422,
        ],
        [
          'NaN-ish value',
          { token: a, json: { name: 'x', screen: { rules: [{ kind: 'value', metric: 'price', op: '>', value: '1e999' }] } } },
          422,
        ],
      ];
      for (const [label, opts, status] of cases) {
        const answer = await callRoute(screenersRoute, opts);
        expect([label, answer.status]).toEqual([label, status]);
        expect(typeof (answer.body as { detail?: unknown }).detail).toBe('string');
      }
      const unknown = await callRoute(screenersRoute, {
        token: a,
        json: { name: 'x', screen: { rules: [{ kind: 'expr', expr: '(revnue_ttm - 1) > 2' }] } },
      });
      expect((unknown.body as { detail: string }).detail).toBe('Invalid screen: Rule 1: Unknown metric "revnue_ttm" at column 2');
    });

    it('runs a screen as of a date and explains one security', async () => {
      const answer = await callRoute(runRoute, { token: a, json: { screen, explain: securities[0].permaticker } });
      expect(answer.status).toBe(200);
      const body = answer.body as {
        as_of: string;
        count: number;
        universe_count: number;
        rows: { ticker: string; rank: number; values: Record<string, number | null> }[];
        explanation: { permaticker: number; rules: unknown[] };
      };
      expect(body.universe_count).toBeGreaterThan(20);
      expect(body.count).toBeGreaterThan(0);
      expect(body.count).toBeLessThan(body.universe_count);
      const returns = body.rows.map((r) => r.values.ret_3m as number);
      expect(returns).toEqual([...returns].sort((x, y) => y - x));
      expect(body.rows[0].rank).toBe(1);
      expect(body.explanation.rules).toHaveLength(2);
      const earlier = await callRoute(runRoute, { token: a, json: { screen, as_of: '2023-06-30' } });
      expect((earlier.body as { as_of: string }).as_of <= '2023-06-30').toBe(true);
      expect((earlier.body as { as_of: string }).as_of).not.toBe(body.as_of);
      expect((await callRoute(runRoute, { token: a, json: { screen, as_of: 'yesterday' } })).status).toBe(422);
      expect((await callRoute(runRoute, { token: a, json: { screen: { rules: 'all' } } })).status).toBe(422);
      expect((await callRoute(runRoute, { json: { screen } })).status).toBe(401);
      // The /screener page sends guests away, so the API refuses their screens too.
      const guest = await callRoute(runRoute, { token: issueGuestToken().access_token, json: { screen } });
      expect(guest.status).toBe(403);
      expect((guest.body as { detail: string }).detail).toMatch(/guests may only use the data browser/i);
    });
  },
  { env: { MARKET_DB: marketDb } },
);

describe('screener API without market data', () => {
  it('is a clear 503, not a crash', async () => {
    const { loadSecurityMeta } = await import('~/services/screener/securities.server');
    const previous = process.env.MARKET_DB;
    process.env.MARKET_DB = path.join(marketDir, 'missing.duckdb');
    const { resetConfigForTests } = await import('~/services/config.server');
    resetConfigForTests();
    try {
      await expect(loadSecurityMeta()).rejects.toMatchObject({ status: 503 });
    } finally {
      if (previous === undefined) delete process.env.MARKET_DB;
      else process.env.MARKET_DB = previous;
      resetConfigForTests();
    }
  });
});

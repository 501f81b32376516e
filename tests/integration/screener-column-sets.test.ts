import { beforeAll, expect, it } from 'vitest';
import * as setsRoute from '~/routes/api.v1.screener.column-sets';
import * as setRoute from '~/routes/api.v1.screener.column-sets.$id';
import { issueGuestToken, issueUserToken } from '~/services/auth/tokens.server';
import { createUser } from '~/services/auth/users.server';
import { getDb } from '~/services/db/db.server';
import { listColumnSets } from '~/services/screener/column-sets.server';
import { callRoute } from '../support/api';
import { forEachDatabase } from '../support/databases';

// Saved column sets of the screener results through their JSON API, on SQLite and PostgreSQL:
// the life of a set, ownership (another user's set is 404 everywhere) and hostile input.

type SetBody = { id: string; name: string; columns: string[]; created_at: string; updated_at: string };

forEachDatabase('screener column sets API', () => {
  let a: string;
  let b: string;
  let aId: string;
  beforeAll(async () => {
    const ua = await createUser({ email: 'cols-a@example.com', password: 'correct horse battery', full_name: 'User A', access: true });
    const ub = await createUser({ email: 'cols-b@example.com', password: 'correct horse battery', full_name: 'User B', access: true });
    aId = ua.id;
    a = (await issueUserToken(ua.id)).access_token;
    b = (await issueUserToken(ub.id)).access_token;
  });

  it('creates (labels become ids), lists, reads, renames, changes and deletes a set', async () => {
    const created = await callRoute(setsRoute, {
      token: a,
      json: { name: '  Value   view ', columns: ['market_cap', 'P/E (TTM)', 'pe_ttm', 'dividend_yield'] },
    });
    expect(created.status).toBe(201);
    const body = created.body as SetBody;
    expect(body).toMatchObject({ name: 'Value view', columns: ['market_cap', 'pe_ttm', 'dividend_yield'] });
    const listed = await callRoute(setsRoute, { token: a });
    expect((listed.body as SetBody[]).map((s) => s.id)).toEqual([body.id]);
    expect((await callRoute(setRoute, { token: a, params: { id: body.id } })).body).toEqual(body);
    const renamed = await callRoute(setRoute, { token: a, method: 'PATCH', params: { id: body.id }, json: { name: 'Cheap' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Cheap', columns: body.columns });
    const changed = await callRoute(setRoute, { token: a, method: 'PATCH', params: { id: body.id }, json: { columns: ['price'] } });
    expect(changed.body).toMatchObject({ name: 'Cheap', columns: ['price'] });
    expect((await callRoute(setRoute, { token: a, method: 'DELETE', params: { id: body.id } })).status).toBe(204);
    const gone = await callRoute(setRoute, { token: a, params: { id: body.id } });
    expect([gone.status, gone.body]).toEqual([404, { detail: 'Column set not found.' }]);
    expect(await listColumnSets(aId)).toEqual([]);
  });

  it('user B gets 404 for every one of A’s sets, never sees them listed, and A’s set is unchanged', async () => {
    const created = await callRoute(setsRoute, { token: a, json: { name: 'Private', columns: ['ret_12m'] } });
    const id = (created.body as SetBody).id;
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const answer = await callRoute(setRoute, {
        token: b,
        method,
        params: { id },
        ...(method === 'PATCH' ? { json: { name: 'Stolen', columns: ['price'] } } : {}),
      });
      expect([method, answer.status, answer.body]).toEqual([method, 404, { detail: 'Column set not found.' }]);
    }
    expect((await callRoute(setsRoute, { token: b })).body).toEqual([]);
    expect((await callRoute(setRoute, { token: a, params: { id } })).body).toMatchObject({ name: 'Private', columns: ['ret_12m'] });
  });

  it('refuses hostile input with a status and a detail, and stores nothing', async () => {
    const before = (await listColumnSets(aId)).length;
    const many = Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? 'price' : 'market_cap'));
    const cases: [string, Parameters<typeof callRoute>[1], number, RegExp | null][] = [
      ['no token', { json: { name: 'x', columns: ['price'] } }, 401, null],
      ['guest', { token: issueGuestToken().access_token, json: { name: 'x', columns: ['price'] } }, 403, null],
      ['not JSON', { token: a, body: '{"name":', headers: { 'Content-Type': 'application/json' } }, 400, null],
      ['XML', { token: a, body: '<x/>', headers: { 'Content-Type': 'application/xml' } }, 415, null],
      ['array body', { token: a, json: [1, 2] }, 422, null],
      ['columns as text', { token: a, json: { name: 'x', columns: 'price,pe_ttm' } }, 422, null],
      ['extra field', { token: a, json: { name: 'x', columns: ['price'], user_id: 'someone' } }, 422, null],
      ['empty name', { token: a, json: { name: '   ', columns: ['price'] } }, 400, /Enter a name/],
      ['long name', { token: a, json: { name: 'n'.repeat(101), columns: ['price'] } }, 400, /at most 100 characters \(got 101\)/],
      ['huge name', { token: a, json: { name: 'n'.repeat(5000), columns: ['price'] } }, 422, null],
      ['no columns', { token: a, json: { name: 'x', columns: [] } }, 400, /at least one column/],
      ['1000 columns', { token: a, json: { name: 'x', columns: many } }, 400, /at most 30 columns \(got 1000\)/],
      [
        'unknown id',
        { token: a, json: { name: 'x', columns: ['price', 'revnue_ttm'] } },
        400,
        /Unknown metric "revnue_ttm": did you mean revenue_ttm/,
      ],
      ['SQL in a column', { token: a, json: { name: 'x', columns: ["price'); DROP TABLE column_sets;--"] } }, 400, /Unknown metric/],
    ];
    for (const [label, opts, status, detail] of cases) {
      const answer = await callRoute(setsRoute, opts);
      expect([label, answer.status]).toEqual([label, status]);
      const text = (answer.body as { detail?: unknown }).detail;
      expect(typeof text).toBe('string');
      if (detail) expect(text).toMatch(detail);
    }
    const id = ((await callRoute(setsRoute, { token: a, json: { name: 'Keep', columns: ['price'] } })).body as SetBody).id;
    const patchCases: [string, unknown, number][] = [
      ['unknown id', { columns: ['nope'] }, 400],
      ['1000 columns', { columns: many }, 400],
      ['long name', { name: 'x'.repeat(101) }, 400],
      ['null name', { name: null }, 422],
    ];
    for (const [label, json, status] of patchCases) {
      const answer = await callRoute(setRoute, { token: a, method: 'PATCH', params: { id }, json });
      expect([label, answer.status]).toEqual([label, status]);
    }
    expect((await callRoute(setRoute, { token: a, params: { id } })).body).toMatchObject({ name: 'Keep', columns: ['price'] });
    const odd = await callRoute(setRoute, { token: a, params: { id: 'x'.repeat(64) } });
    expect(odd.status).toBe(404);
    expect((await callRoute(setRoute, { token: a, method: 'PUT', params: { id }, json: {} })).status).toBe(405);
    expect((await listColumnSets(aId)).length).toBe(before + 1);
  });

  it('drops columns the catalogue no longer has when reading a stored set', async () => {
    const id = ((await callRoute(setsRoute, { token: a, json: { name: 'Old', columns: ['price', 'pe_ttm'] } })).body as SetBody).id;
    const db = await getDb();
    await db
      .updateTable('column_sets')
      .set({ columns: JSON.stringify(['price', 'retired_metric']) })
      .where('id', '=', id)
      .execute();
    expect((await callRoute(setRoute, { token: a, params: { id } })).body).toMatchObject({ columns: ['price'] });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '~/services/config.server';
import { closeMarketReader } from '~/services/market/store/open-store.server';
import { writeFixtureStore } from '~/services/metrics/testing/fixture-store.server';
import { syntheticUniverse } from '~/services/metrics/testing/synthetic-universe';
import { loader } from './api.v1.data.$permaticker.$metric';
import { contractProblem } from '../../tests/support/api-contract';

const securities = syntheticUniverse({ securities: 3, years: 4, seed: 5 });
let dir: string;
const saved = {
  MARKET_DB: process.env.MARKET_DB,
  DATA_DIR: process.env.DATA_DIR,
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-data-api-'));
  process.env.DATA_DIR = dir;
  process.env.MARKET_DB = path.join(dir, 'market.duckdb');
  resetConfigForTests();
  await writeFixtureStore(process.env.MARKET_DB, securities);
});

afterAll(() => {
  closeMarketReader();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfigForTests();
  rmSync(dir, { recursive: true, force: true });
});

async function get(permaticker: string, metric: string, query = '') {
  const request = new Request(`http://localhost/api/v1/data/${permaticker}/${metric}${query}`);
  const response = await loader({
    request,
    params: { permaticker, metric },
    context: {},
  } as LoaderFunctionArgs);
  const body = (await response.json()) as Record<string, unknown>;
  expect(contractProblem('GET', new URL(request.url).pathname, response.status, 'application/json', body)).toBeNull();
  return { status: response.status, body };
}

describe('GET /api/v1/data/{permaticker}/{metric}', () => {
  const p = String(securities[0].permaticker);

  it('answers the series with filed dates and accessions', async () => {
    const { status, body } = await get(p, 'revenue_ttm', '?from=2023-01-01&to=2024-06-30&mode=latest');
    expect(status).toBe(200);
    expect(body.mode).toBe('latest');
    const points = body.points as {
      date: string;
      value: number | null;
      filed: string | null;
      accession: string | null;
    }[];
    expect(points.length).toBeGreaterThan(2);
    expect(points.every((pt) => pt.date >= '2023-01-01' && pt.date <= '2024-06-30')).toBe(true);
    expect(points.some((pt) => pt.value !== null && pt.filed !== null && pt.accession !== null)).toBe(true);
    expect((body.metric as { id: string }).id).toBe('revenue_ttm');
  });

  it('stops at as_of', async () => {
    const { body } = await get(p, 'price', '?from=2024-01-01&as_of=2024-02-01');
    const points = body.points as { date: string }[];
    expect(points.length).toBeGreaterThan(0);
    expect(points.every((pt) => pt.date <= '2024-02-01')).toBe(true);
  });

  it('answers 404 {detail} for an unknown security or metric', async () => {
    for (const [sec, metric] of [
      ['999', 'price'],
      ['abc', 'price'],
      [p, 'not_a_metric'],
    ]) {
      const { status, body } = await get(sec, metric);
      expect(status).toBe(404);
      expect(typeof body.detail).toBe('string');
    }
  });

  it('answers 422 {detail} for bad parameters', async () => {
    for (const q of ['?from=2024-13-01', '?mode=whenever', '?from=2024-05-01&to=2024-01-01', '?as_of=yesterday']) {
      const { status, body } = await get(p, 'price', q);
      expect(status).toBe(422);
      expect(typeof body.detail).toBe('string');
    }
  });
});

import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { describe, expect, it } from 'vitest';
import { METRICS } from '~/services/metrics/catalogue';
import { contractProblem } from '../../tests/support/api-contract';
import { action, loader } from './api.v1.metrics';

describe('GET /api/v1/metrics', () => {
  it('answers the whole catalogue as JSON', async () => {
    const request = new Request('http://localhost/api/v1/metrics');
    const response = await loader({ request, params: {}, context: {} } as LoaderFunctionArgs);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('application/json');
    const json: unknown = await response.json();
    expect(contractProblem('GET', '/api/v1/metrics', 200, 'application/json', json)).toBeNull();
    const body = json as {
      metrics: { id: string; higher_is_better: boolean | null }[];
      categories: { id: string }[];
    };
    expect(body.metrics.map((m) => m.id)).toEqual(METRICS.map((m) => m.id));
    expect(body.metrics.find((m) => m.id === 'pe_ttm')?.higher_is_better).toBe(false);
    expect(body.categories.length).toBeGreaterThan(7);
  });

  it('refuses other methods with 405 {detail}', async () => {
    const response = await action({
      request: new Request('http://localhost/api/v1/metrics', {
        method: 'POST',
      }),
      params: {},
      context: {},
    } as ActionFunctionArgs);
    expect(response.status).toBe(405);
    expect(((await response.json()) as { detail: string }).detail).toContain('GET');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { apiRequest } from './api-client';
import { subscribeToModals } from './modals/client-modal-store';
import type { ModalState } from '~/services/http/modal-state';
import { errorModalText } from './modals/modal-state';

const answer = (status: number, body: string) => (async () => new Response(body, { status })) as unknown as typeof fetch;
const noSleep = async () => {};

let opened: Array<ModalState | null> = [];
const unsubscribe = subscribeToModals((m) => opened.push(m));
afterEach(() => {
  opened = [];
});

describe('enhanced fetches open the error modal', () => {
  it('shows the detail of a failed answer', async () => {
    await expect(
      apiRequest('/api/v1/x', {}, { fetcher: answer(422, '{"detail":"Unknown metric: foo"}'), sleep: noSleep }),
    ).rejects.toThrow();
    expect(opened).toHaveLength(1);
    expect(opened[0]?.kind).toBe('error');
    expect(opened[0]?.kind === 'error' && errorModalText(opened[0].error)).toBe('Unknown metric: foo');
  });
  it('stays silent for an expired token and for HTML answers', async () => {
    await expect(apiRequest('/api', {}, { fetcher: answer(401, '{"detail":"Token expired"}'), sleep: noSleep })).rejects.toThrow();
    await expect(apiRequest('/api', {}, { fetcher: answer(500, '<!doctype html><p>oops</p>'), sleep: noSleep })).rejects.toThrow();
    expect(opened).toEqual([]);
  });
  it('marks rate limiting as a warning', async () => {
    await expect(apiRequest('/api', {}, { fetcher: answer(429, '{"detail":"Slow down"}'), sleep: noSleep, attempts: 1 })).rejects.toThrow();
    expect(opened[0]).toMatchObject({ kind: 'error', warning: true });
  });
  it('returns the JSON of a successful answer', async () => {
    expect(await apiRequest<{ ok: boolean }>('/api', {}, { fetcher: answer(200, '{"ok":true}') })).toEqual({ ok: true });
    expect(opened).toEqual([]);
  });
});

process.on('exit', unsubscribe);

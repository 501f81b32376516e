import { fetchWithRetry, HttpError, type RetryOptions } from '~/services/http/retrying-fetch';
import { openModal } from './modals/client-modal-store';
import { shouldShowApiError } from './modals/modal-state';

// The browser's enhanced fetches to the JSON API: cookies included, JSON in and out,
// the retry rule, and any failure opens the error modal — except a 401 saying the
// token expired and answers that are HTML strings, which are handled silently.

export async function apiRequest<T>(path: string, init: RequestInit = {}, options: RetryOptions = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if (init.body !== undefined && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  try {
    const response = await fetchWithRetry(path, { credentials: 'include', ...init, headers }, options);
    const text = await response.text();
    return (text ? JSON.parse(text) : null) as T;
  } catch (error) {
    const status = error instanceof HttpError ? (error.status ?? 0) : 0;
    const data = error instanceof HttpError ? error.data : undefined;
    if (shouldShowApiError(status, data)) {
      openModal({ kind: 'error', error: error instanceof HttpError && data !== null ? { data } : error, warning: status === 429 });
    }
    throw error;
  }
}

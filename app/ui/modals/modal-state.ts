// The modal texts, sizes and rules shared by the server-rendered and the JavaScript modal; the
// modal state itself is data the server sends, typed in app/services/http/modal-state.ts.

export const DEFAULT_ERROR_TITLE = 'Error';
export const CLOSE_MODAL_LABEL = 'Close modal';
export const ERROR_MODAL_WIDTH = '25rem';
export const INFO_MODAL_WIDTH = '35rem';
export const DIALOG_ANIMATION_MS = 150;

/**
 * The error modal's text: the error's detail text; if absent, the raw error data;
 * if absent, the error itself.
 */
export function errorModalText(error: unknown): string {
  if (error === null || error === undefined) return '';
  if (typeof error === 'string') return error;
  if (typeof error === 'object') {
    const e = error as { detail?: unknown; data?: unknown; message?: unknown };
    const data = e.data as { detail?: unknown } | undefined;
    const detail = e.detail ?? (data && typeof data === 'object' ? data.detail : undefined);
    if (detail !== undefined && detail !== null) return typeof detail === 'string' ? detail : JSON.stringify(detail);
    if (e.data !== undefined && e.data !== null) return typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
    if (typeof e.message === 'string') return e.message;
    return JSON.stringify(error);
  }
  return String(error);
}

/**
 * An API failure opens the error dialog, except a 401 whose body says the token
 * expired (handled silently) and except answers that are HTML strings.
 */
export function shouldShowApiError(status: number, body: unknown): boolean {
  if (typeof body === 'string' && /^\s*<(!doctype|html|head|body|\w+[\s>])/i.test(body)) return false;
  if (status === 401) {
    const detail = typeof body === 'object' && body !== null ? (body as { detail?: unknown }).detail : body;
    if (typeof detail === 'string' && /token.*expired/i.test(detail)) return false;
  }
  return true;
}

import { describe, expect, it } from 'vitest';
import {
  CLOSE_MODAL_LABEL,
  DEFAULT_ERROR_TITLE,
  DIALOG_ANIMATION_MS,
  ERROR_MODAL_WIDTH,
  errorModalText,
  INFO_MODAL_WIDTH,
  shouldShowApiError,
} from './modal-state';
import { modalWidth } from './ModalHost';
import { modalTitle } from './ModalBody';

describe('error modal text', () => {
  it("shows the error's detail text first", () => {
    expect(errorModalText({ detail: 'Too many attempts.' })).toBe('Too many attempts.');
    expect(errorModalText({ data: { detail: 'Invalid token' }, message: 'x' })).toBe('Invalid token');
  });
  it('falls back to the raw error data, then to the error itself', () => {
    expect(errorModalText({ data: 'Bad gateway' })).toBe('Bad gateway');
    expect(errorModalText({ data: { code: 7 } })).toBe('{"code":7}');
    expect(errorModalText(new Error('network down'))).toBe('network down');
    expect(errorModalText('plain words')).toBe('plain words');
  });
  it('uses "Error" as the default title', () => {
    expect(modalTitle({ kind: 'error', error: 'x' })).toBe(DEFAULT_ERROR_TITLE);
    expect(DEFAULT_ERROR_TITLE).toBe('Error');
    expect(modalTitle({ kind: 'error', title: 'Sign-in failed', error: 'x' })).toBe('Sign-in failed');
  });
});

describe('which API failures open the error modal', () => {
  it('hides a 401 saying the token expired', () => {
    expect(shouldShowApiError(401, { detail: 'Token expired' })).toBe(false);
    expect(shouldShowApiError(401, { detail: 'Invalid token' })).toBe(true);
  });
  it('hides answers that are HTML strings', () => {
    expect(shouldShowApiError(502, '<!DOCTYPE html><html><body>Bad gateway</body></html>')).toBe(false);
    expect(shouldShowApiError(500, '<html>')).toBe(false);
    expect(shouldShowApiError(500, 'Internal error')).toBe(true);
  });
  it('shows every other failure', () => {
    expect(shouldShowApiError(429, { detail: 'Too many attempts.' })).toBe(true);
    expect(shouldShowApiError(404, { detail: 'Not found' })).toBe(true);
  });
});

describe('modal constants', () => {
  it('sizes the error and info modals and animates for 150 ms', () => {
    expect(modalWidth({ kind: 'error', error: '' })).toBe('25rem');
    expect(modalWidth({ kind: 'info', title: '', content: '' })).toBe('35rem');
    expect(ERROR_MODAL_WIDTH).toBe('25rem');
    expect(INFO_MODAL_WIDTH).toBe('35rem');
    expect(DIALOG_ANIMATION_MS).toBe(150);
    expect(CLOSE_MODAL_LABEL).toBe('Close modal');
  });
});

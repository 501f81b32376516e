import { Form } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { ConfirmModalState, ModalState, PromptModalState } from '~/services/http/modal-state';
import { CLOSE_MODAL_LABEL, DEFAULT_ERROR_TITLE, errorModalText } from './modal-state';

// What every modal shows, shared by the server-rendered fallback and the Ark UI dialog.
// Prompt and confirm are real forms: OK/Confirm posts the form, and Cancel and the close
// button post a second form carrying the cancelled flag, so the same answers reach the server
// with or without JavaScript.

export type ModalParts = {
  Title: (p: { children: ReactNode; id: string }) => ReactNode;
  Description: (p: { children: ReactNode; id: string }) => ReactNode;
  /** Closes an error or info modal: a link without JS, a button with it. */
  Close: (p: { children: ReactNode; className: string; label?: string; autoFocus?: boolean }) => ReactNode;
};

export function modalTitle(state: ModalState): string {
  return state.kind === 'error' ? state.title || DEFAULT_ERROR_TITLE : state.title;
}

function Icon({ state }: { state: ModalState }) {
  if (state.kind === 'error') {
    return (
      <span className={`modal-icon ${state.warning ? 'modal-icon--warning' : 'modal-icon--danger'}`} aria-hidden="true">
        !
      </span>
    );
  }
  if (state.kind === 'info') {
    const info = (state.mode ?? 'info') === 'info';
    return (
      <span
        className={`modal-icon ${info ? 'modal-icon--info' : 'modal-icon--success'}`}
        aria-hidden="true"
        data-mode={info ? 'info' : 'success'}
      >
        {info ? 'i' : '✓'}
      </span>
    );
  }
  return null;
}

function HiddenFields({ fields }: { fields?: Record<string, string> }) {
  return (
    <>
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

function cancelFormId(state: PromptModalState | ConfirmModalState) {
  return `modal-cancel-${state.kind}`;
}

/** The form that Cancel and the close button submit: empty text, cancelled flag. */
function CancelForm({ state, onSubmit }: { state: PromptModalState | ConfirmModalState; onSubmit?: () => void }) {
  return (
    <Form id={cancelFormId(state)} method="post" action={state.action} onSubmit={onSubmit} hidden>
      <HiddenFields fields={state.fields} />
      {state.kind === 'prompt' ? <input type="hidden" name={state.name ?? 'value'} value="" /> : null}
      {state.kind === 'confirm' ? <input type="hidden" name="confirmed" value="false" /> : null}
      <input type="hidden" name="cancelled" value="true" />
    </Form>
  );
}

export function CloseModalButton({ state }: { state: PromptModalState | ConfirmModalState }) {
  return (
    <button type="submit" form={cancelFormId(state)} className="modal-close" aria-label={CLOSE_MODAL_LABEL}>
      <span aria-hidden="true">×</span>
    </button>
  );
}

/**
 * `autoFocusFirst`: the server-rendered dialog (no JavaScript) marks its first field, else its
 * first action, with `autofocus`, so the browser puts the focus in it as the page loads.
 */
export function ModalBody({
  state,
  parts,
  onCancel,
  autoFocusFirst = false,
}: {
  state: ModalState;
  parts: ModalParts;
  onCancel?: () => void;
  autoFocusFirst?: boolean;
}) {
  const titleId = `modal-title-${state.kind}`;
  const descId = `modal-desc-${state.kind}`;
  const { Title, Description, Close } = parts;
  const header = (
    <div className="modal-header">
      <Icon state={state} />
      <Title id={titleId}>{modalTitle(state)}</Title>
    </div>
  );

  // Every modal shows its close control, title and text; only what follows differs by kind.
  const prelude = (text: string) => (
    <>
      {state.kind === 'prompt' || state.kind === 'confirm' ? (
        <CloseModalButton state={state} />
      ) : (
        <Close className="modal-close" label={CLOSE_MODAL_LABEL} autoFocus={autoFocusFirst && state.kind === 'error'}>
          <span aria-hidden="true">×</span>
        </Close>
      )}
      {header}
      <Description id={descId}>
        <span className="modal-text">{text}</span>
      </Description>
    </>
  );

  switch (state.kind) {
    case 'error':
      return prelude(errorModalText(state.error));
    case 'info':
      return (
        <>
          {prelude(state.content)}
          <div className="modal-actions">
            <Close className="button button--primary" autoFocus={autoFocusFirst}>
              OK
            </Close>
          </div>
        </>
      );
    case 'prompt': {
      const inputId = 'modal-prompt-input';
      return (
        <>
          {prelude(state.content)}
          <Form method="post" action={state.action} className="modal-form">
            <HiddenFields fields={state.fields} />
            <input type="hidden" name="cancelled" value="false" />
            <label htmlFor={inputId}>{state.label}</label>
            <input
              id={inputId}
              name={state.name ?? 'value'}
              type="text"
              required
              maxLength={state.maxLength ?? 200}
              defaultValue={state.defaultValue}
              autoComplete="off"
              autoFocus={autoFocusFirst}
            />
            <div className="modal-actions">
              <button type="submit" form={cancelFormId(state)} className="button">
                Cancel
              </button>
              <button type="submit" className="button button--primary">
                OK
              </button>
            </div>
          </Form>
          <CancelForm state={state} onSubmit={onCancel} />
        </>
      );
    }
    case 'confirm':
      return (
        <>
          {prelude(state.content)}
          <Form method="post" action={state.action} className="modal-form">
            <HiddenFields fields={state.fields} />
            <input type="hidden" name="confirmed" value="true" />
            <input type="hidden" name="cancelled" value="false" />
            <div className="modal-actions">
              <button type="submit" form={cancelFormId(state)} className="button" autoFocus={autoFocusFirst}>
                Cancel
              </button>
              <button type="submit" className={`button ${state.danger ? 'button--danger' : 'button--primary'}`}>
                {state.confirmLabel ?? 'Confirm'}
              </button>
            </div>
          </Form>
          <CancelForm state={state} onSubmit={onCancel} />
        </>
      );
  }
}

import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { Link, useLocation, useSubmit } from '@remix-run/react';
import { useEffect, useState, type ReactNode } from 'react';
import { useHydrated } from '../use-hydrated';
import { subscribeToModals } from './client-modal-store';
import { ModalBody, type ModalParts } from './ModalBody';
import type { ModalState } from '~/services/http/modal-state';
import { ERROR_MODAL_WIDTH, INFO_MODAL_WIDTH } from './modal-state';

// The one modal host. The server renders the open modal as plain HTML so it works
// without JavaScript (closed by a link, or by posting its form); once React runs in the
// browser the same state is shown in an Ark UI dialog with focus trapping and Escape.

const PROMPT_WIDTH = '30rem';

export function modalWidth(state: ModalState): string {
  if (state.kind === 'error') return ERROR_MODAL_WIDTH;
  if (state.kind === 'info') return INFO_MODAL_WIDTH;
  return PROMPT_WIDTH;
}

function closeHref(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete('modal');
  const q = params.toString();
  return q ? `${pathname}?${q}` : pathname;
}

function StaticModal({ state, href }: { state: ModalState; href: string }) {
  const parts: ModalParts = {
    Title: ({ children, id }) => (
      <h2 id={id} className="modal-title">
        {children}
      </h2>
    ),
    Description: ({ children, id }) => (
      <p id={id} className="modal-description">
        {children}
      </p>
    ),
    Close: ({ children, className, label, autoFocus }) => (
      <Link to={href} className={className} aria-label={label} replace autoFocus={autoFocus}>
        {children}
      </Link>
    ),
  };
  return (
    <div className="modal-layer" data-state="open">
      <div className="modal-backdrop" data-state="open" />
      <div className="modal-positioner">
        <div
          role={state.kind === 'error' ? 'alertdialog' : 'dialog'}
          aria-modal="true"
          aria-labelledby={`modal-title-${state.kind}`}
          aria-describedby={`modal-desc-${state.kind}`}
          className={`modal modal--${state.kind}`}
          data-state="open"
          style={{ width: modalWidth(state) }}
        >
          <ModalBody state={state} parts={parts} autoFocusFirst />
        </div>
      </div>
    </div>
  );
}

function ArkModal({ state, onClosed }: { state: ModalState; onClosed: () => void }) {
  const submit = useSubmit();
  const cancelThenClose = () => {
    // "Cancel or any close submits false with the cancelled flag".
    if (state.kind === 'prompt' || state.kind === 'confirm') {
      const form = document.getElementById(`modal-cancel-${state.kind}`);
      if (form instanceof HTMLFormElement) submit(form, { replace: true });
    }
    onClosed();
  };
  const parts: ModalParts = {
    Title: ({ children, id }) => (
      <Dialog.Title id={id} className="modal-title">
        {children}
      </Dialog.Title>
    ),
    Description: ({ children, id }) => (
      <Dialog.Description id={id} className="modal-description">
        {children}
      </Dialog.Description>
    ),
    Close: ({ children, className, label }: { children: ReactNode; className: string; label?: string }) => (
      <Dialog.CloseTrigger className={className} aria-label={label}>
        {children}
      </Dialog.CloseTrigger>
    ),
  };
  return (
    <Dialog.Root
      open
      role={state.kind === 'error' ? 'alertdialog' : 'dialog'}
      // The title and description keep ModalBody's ids; Ark must know them, or the dialog gets
      // no aria-labelledby/aria-describedby (it looks the parts up by id) and has no name.
      ids={{ title: `modal-title-${state.kind}`, description: `modal-desc-${state.kind}` }}
      // Focus is trapped inside, so focus "outside" only comes from the dialog this one replaced
      // handing focus back to its trigger; that must not dismiss the new modal (a click outside
      // or Escape still does).
      onFocusOutside={(e) => e.preventDefault()}
      // First the dialog's first field, else its first action: never the × in the corner.
      initialFocusEl={() =>
        document.querySelector<HTMLElement>(
          '.modal input:not([type="hidden"]), .modal select, .modal textarea, .modal .modal-actions button, .modal .modal-actions a',
        )
      }
      onOpenChange={(d) => {
        if (!d.open) {
          if (state.kind === 'prompt' || state.kind === 'confirm') cancelThenClose();
          else onClosed();
        }
      }}
    >
      <Portal>
        <Dialog.Backdrop className="modal-backdrop" />
        <Dialog.Positioner className="modal-positioner">
          <Dialog.Content className={`modal modal--${state.kind}`} style={{ width: modalWidth(state) }}>
            <ModalBody state={state} parts={parts} onCancel={onClosed} />
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/**
 * The modal host and the page behind it. While a modal is shown the page is `inert`, with and
 * without JavaScript: Tab and clicks stay in the dialog, and assistive technology sees only the
 * dialog. (Ark UI hides the page with aria-hidden a frame after its dialog opens; until then,
 * and while the dialog animates in, the page would be hidden yet focusable.)
 */
export function ModalHost({ serverModal, children }: { serverModal: ModalState | null; children: ReactNode }) {
  const hydrated = useHydrated();
  const location = useLocation();
  const [clientModal, setClientModal] = useState<ModalState | null>(null);
  // The server modal that was closed, by identity: loader data keeps its objects until the next
  // revalidation, and a form answered with a 4xx moves to a new location without revalidating,
  // so remembering the location instead would bring a closed flash modal back.
  const [dismissed, setDismissed] = useState<ModalState | null>(null);

  useEffect(() => subscribeToModals(setClientModal), []);
  useEffect(() => setClientModal(null), [location.key]);

  const active = clientModal ?? (serverModal === dismissed ? null : serverModal);
  // One shape whether a modal is shown or not, so the page is never remounted (nor its form state lost).
  let dialog: ReactNode = null;
  if (active && !hydrated) dialog = <StaticModal state={active} href={closeHref(location.pathname, location.search)} />;
  else if (active)
    dialog = (
      <ArkModal
        key={`${location.key}-${active.kind}`}
        state={active}
        onClosed={() => {
          setClientModal(null);
          setDismissed(serverModal);
        }}
      />
    );
  return (
    <>
      {dialog}
      <div className="page-root" {...(active ? { inert: '' } : {})}>
        {children}
      </div>
    </>
  );
}

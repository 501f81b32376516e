import type { ModalState } from '~/services/http/modal-state';

// Modals opened by browser code (an enhanced fetch that failed). Server-driven modals come
// through loader data instead; both end up in the one ModalHost.

type Listener = (modal: ModalState | null) => void;
const listeners = new Set<Listener>();

export function openModal(modal: ModalState): void {
  for (const l of listeners) l(modal);
}

export function subscribeToModals(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

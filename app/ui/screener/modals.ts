import type { ModalState } from '~/services/http/modal-state';

// The dialogs of the screener pages, rendered by the server from `?modal=` so they work without
// JavaScript; each posts an intent to /screener/manage.

/** "Save screen": a prompt for the name of the screen `query`; cancelled, it goes back to `returnTo`. */
export function saveScreenModal(query: string, returnTo: string): ModalState {
  return {
    kind: 'prompt',
    title: 'Save screen',
    content: 'Give the screen a name. You will find it under Saved screeners.',
    action: '/screener/manage',
    label: 'Name',
    name: 'name',
    maxLength: 100,
    fields: { intent: 'create', query, return_to: returnTo },
  };
}

export function renameScreenerModal(s: { id: string; name: string }): ModalState {
  return {
    kind: 'prompt',
    title: 'Rename screener',
    content: `New name for “${s.name}”.`,
    action: '/screener/manage',
    label: 'Name',
    name: 'name',
    defaultValue: s.name,
    maxLength: 100,
    fields: { intent: 'rename', id: s.id },
  };
}

export function deleteScreenerModal(s: { id: string; name: string }): ModalState {
  return {
    kind: 'confirm',
    title: 'Delete screener?',
    content: `“${s.name}” will be deleted for good.`,
    action: '/screener/manage',
    confirmLabel: 'Delete screener',
    danger: true,
    fields: { intent: 'delete', id: s.id },
  };
}

export function renameColumnSetModal(s: { id: string; name: string }): ModalState {
  return {
    kind: 'prompt',
    title: 'Rename column set',
    content: `New name for “${s.name}”.`,
    action: '/screener/columns',
    label: 'Name',
    name: 'name',
    defaultValue: s.name,
    maxLength: 100,
    fields: { intent: 'rename', id: s.id },
  };
}

export function deleteColumnSetModal(s: { id: string; name: string }): ModalState {
  return {
    kind: 'confirm',
    title: 'Delete column set?',
    content: `“${s.name}” will be deleted for good. Screens that show its columns keep them.`,
    action: '/screener/columns',
    confirmLabel: 'Delete column set',
    danger: true,
    fields: { intent: 'delete', id: s.id },
  };
}

import type { ModalState } from '~/services/http/modal-state';

// The `?modal=` dialogs of /watchlist: new list (prompt), rename (prompt), delete (confirm).
// Rendered by the server, so they work without JavaScript; each posts an intent to /watchlist.

export function watchlistModal(kind: string | null, list: { id: string; name: string }): ModalState | null {
  switch (kind) {
    case 'new-list':
      return {
        kind: 'prompt',
        title: 'New watchlist',
        content: 'Name the new list.',
        action: '/watchlist',
        label: 'Name',
        name: 'name',
        maxLength: 100,
        fields: { intent: 'create-list' },
      };
    case 'rename-list':
      return {
        kind: 'prompt',
        title: 'Rename watchlist',
        content: `New name for “${list.name}”.`,
        action: '/watchlist',
        label: 'Name',
        name: 'name',
        defaultValue: list.name,
        maxLength: 100,
        fields: { intent: 'rename-list', list: list.id },
      };
    case 'delete-list':
      return {
        kind: 'confirm',
        title: 'Delete watchlist?',
        content: `“${list.name}” and its notes will be deleted for good.`,
        action: '/watchlist',
        confirmLabel: 'Delete watchlist',
        danger: true,
        fields: { intent: 'delete-list', list: list.id },
      };
    default:
      return null;
  }
}

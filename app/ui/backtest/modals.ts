import type { ModalState } from '~/services/http/modal-state';

/** The confirm dialog of "Delete backtest…", posting back to the page it was opened on. */
export function deleteBacktestModal(url: URL, { id, name }: { id: string; name: string }): ModalState {
  return {
    kind: 'confirm',
    title: 'Delete backtest?',
    content: `The backtest “${name}” and its result will be deleted for good.`,
    action: `/backtest?${url.searchParams.has('backtest_id') ? `backtest_id=${encodeURIComponent(id)}` : `screener_id=${encodeURIComponent(url.searchParams.get('screener_id') ?? '')}`}`,
    confirmLabel: 'Delete backtest',
    danger: true,
    fields: { intent: 'delete', id },
  };
}

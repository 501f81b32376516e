import { useEffect, useRef, type FormEvent } from 'react';

// With JavaScript, each "Add …" or "Remove …" button of the screener form is a client-side
// navigation that redraws the form; without this the keyboard focus would fall back to <body>.
// After the new screen shows, focus goes to what was just edited: the new rule's field after
// adding a rule, the same builder field after adding a column or ranking, the rule now in the
// removed one's place, or else the button that was pressed.

function target(name: string, value: string): HTMLElement | null {
  const rules = document.querySelectorAll<HTMLInputElement>('.screener-rule-input');
  if (name === 'add' && value === 'column') return document.getElementById('add-col');
  if (name === 'add' && value === 'ranking') return document.getElementById('rank-add-metric');
  if (name === 'add') return rules.item(rules.length - 1) ?? document.getElementById('add-metric');
  if (name === 'remove') return rules.item(Math.min(Number(value), rules.length - 1)) ?? document.getElementById('add-metric');
  if (name === 'remove_col') return document.getElementById('add-col');
  if (name === 'remove_rank') return document.getElementById('rank-add-metric');
  return document.querySelector<HTMLElement>(`button[name="${CSS.escape(name)}"][value="${CSS.escape(value)}"]`);
}

export function useFocusAfterEdit(search: string) {
  const pending = useRef<{ name: string; value: string } | null>(null);
  useEffect(() => {
    const edit = pending.current;
    pending.current = null;
    if (!edit) return;
    target(edit.name, edit.value)?.focus({ preventScroll: false });
  }, [search]);
  return (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    pending.current = submitter instanceof HTMLButtonElement ? { name: submitter.name, value: submitter.value } : null;
  };
}

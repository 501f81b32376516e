import type { SubmissionResult } from '@conform-to/react';

// The profile page has several forms posting to one action: an answer belongs to the form whose
// intent it carries, and the other forms ignore it.

export type FormResult = SubmissionResult<string[]>;

export function resultFor(actionData: unknown, intent: string): FormResult | undefined {
  if (!actionData || typeof actionData !== 'object' || !('status' in actionData)) return undefined;
  const result = actionData as FormResult;
  return result.initialValue?.intent === intent ? result : undefined;
}

/**
 * Form-level errors that do not repeat a field's own error (services report a field's problem
 * both ways, for the JSON API).
 */
export function formOnlyErrors(formErrors: string[] | undefined, fieldErrors: Array<string[] | undefined>): string[] | undefined {
  const shown = new Set(fieldErrors.flatMap((e) => e ?? []));
  const rest = formErrors?.filter((e) => !shown.has(e));
  return rest?.length ? rest : undefined;
}

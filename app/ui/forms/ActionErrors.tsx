import type { SubmissionResult } from '@conform-to/react';

// What a page with many small forms (watchlist rows, saved screeners, admin buttons) shows when
// one of them came back refused: the form's errors from the action's 400 answer, at the top of the
// page, announced to screen readers. Pages with one form per section show errors at that form.

export function submissionErrors(result: unknown): string[] {
  if (!result || typeof result !== 'object' || !('error' in result)) return [];
  const error = (result as SubmissionResult<string[]>).error;
  if (!error) return [];
  const out: string[] = [];
  for (const [field, messages] of Object.entries(error)) {
    for (const message of messages ?? []) out.push(field === '' || field === 'intent' ? message : `${field}: ${message}`);
  }
  return out;
}

export function ActionErrors({ result, title = 'That did not work:' }: { result: unknown; title?: string }) {
  const errors = submissionErrors(result);
  if (errors.length === 0) return null;
  return (
    <div className="form-errors" role="alert" data-testid="action-errors">
      <p>{title}</p>
      <ul>
        {errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </div>
  );
}

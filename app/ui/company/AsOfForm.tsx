import { Form } from '@remix-run/react';

// The as-of date picker: a GET form, so it works without JavaScript. Other query parameters
// of the page (range, period…) travel along as hidden inputs.
export function AsOfForm({
  action,
  asOf,
  error,
  keep = {},
}: {
  action?: string;
  asOf: string | null;
  error: string | null;
  keep?: Record<string, string>;
}) {
  return (
    <Form method="get" action={action} className="as-of-form" aria-label="As-of date">
      {Object.entries(keep).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <label htmlFor="as-of-input">As of date</label>
      <input
        id="as-of-input"
        name="as_of"
        type="text"
        inputMode="numeric"
        placeholder="YYYY-MM-DD"
        defaultValue={asOf ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'as-of-error' : 'as-of-hint'}
        size={11}
      />
      <button type="submit" className="button">
        Show
      </button>
      {asOf ? (
        <a href="?" className="as-of-form__latest">
          Latest
        </a>
      ) : null}
      {error ? (
        <p id="as-of-error" className="field__error" role="alert">
          {error}
        </p>
      ) : (
        <p id="as-of-hint" className="field__hint">
          Leave empty for the latest data.
        </p>
      )}
    </Form>
  );
}

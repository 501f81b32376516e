// Shown instead of a tab's content when the as-of date is not a date (status 400).
export function BadAsOf({ message }: { message: string }) {
  return (
    <section className="card callout callout--error" aria-labelledby="bad-as-of-title">
      <h2 id="bad-as-of-title">Invalid as-of date</h2>
      <p>{message}</p>
      <p>Correct the date above, or leave it empty for the latest data.</p>
    </section>
  );
}

export function AsOfLine({ requested, date, what = 'Data' }: { requested: string | null; date: string | null; what?: string }) {
  return (
    <p className="as-of-line" data-testid="as-of">
      {what} as of <strong>{date ?? 'n/a'}</strong>
      {requested && date && requested !== date ? <span className="muted"> (last trading day on or before {requested})</span> : null}
      {!requested ? <span className="muted"> (latest)</span> : null}
    </p>
  );
}

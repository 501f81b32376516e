import { formatTimestamp, type TimestampPrecision } from './timestamp-format';

// A stored instant (ISO 8601, UTC) as people read it: "2026-01-02 03:04 UTC", or the day alone
// where the time says nothing ("Added 2026-01-02"). The exact value stays in `dateTime` and the
// tooltip. Every page shows instants through this one component.

export function Timestamp({
  iso,
  precision = 'minute',
  empty = '—',
}: {
  iso: string | null | undefined;
  precision?: TimestampPrecision;
  empty?: string;
}) {
  if (!iso) return <span className="muted">{empty}</span>;
  return (
    <time dateTime={iso} title={iso}>
      {formatTimestamp(iso, precision)}
    </time>
  );
}

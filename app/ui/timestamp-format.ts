// Text of a stored UTC instant. Pure string work on the ISO form (no Date, no local time zone):
// the server and the browser render the same text, so hydration never changes it.

export type TimestampPrecision = 'minute' | 'day';

const ISO_INSTANT = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]00:?00)?$/;

export function formatTimestamp(iso: string, precision: TimestampPrecision = 'minute'): string {
  const m = ISO_INSTANT.exec(iso.trim());
  if (!m) return iso;
  return precision === 'day' ? m[1] : `${m[1]} ${m[2]} UTC`;
}

/** A stored ISO-8601 UTC timestamp, shown as it is stored (the admin pages speak UTC). */
export function UtcTime({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">—</span>;
  return <time dateTime={iso}>{iso}</time>;
}

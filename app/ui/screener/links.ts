// Links of the screener page: the current screen's address with some parameters changed (a sort,
// a page, an explanation to open or close). Any pending `?modal=` is dropped.

export function screenerSearch(search: string, changes: Record<string, string | null>): string {
  const p = new URLSearchParams(search);
  p.delete('modal');
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) p.delete(k);
    else p.set(k, v);
  }
  const qs = p.toString();
  return qs ? `?${qs}` : '?';
}

// The sorting rule every sortable table follows: a click on the sorted column turns it around;
// a click on another column starts at its natural end (numbers and dates high to low, text A to Z).

export type SortDir = 'asc' | 'desc';
export type SortState = { key: string; dir: SortDir };

export function nextSortDir(sort: { key: string; dir: string }, key: string, descendingFirst: boolean): SortDir {
  if (sort.key === key) return sort.dir === 'asc' ? 'desc' : 'asc';
  return descendingFirst ? 'desc' : 'asc';
}

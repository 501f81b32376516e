// Joins a snapshot's rows to a run's sorted permaticker list (securities or price series) once per
// signal date. Snapshot rows come in ascending permaticker order, so a merge walk does it in one
// pass; rows out of order (a caller breaking that contract) fall back to binary search.

/** For each of `keys`, its index in `sorted` (ascending, unique), or -1; into `out` when given. */
export function indexOfEach(keys: Int32Array, sorted: Int32Array, out = new Int32Array(keys.length)): Int32Array {
  let j = 0;
  for (let r = 0; r < keys.length; r++) {
    const p = keys[r];
    if (r > 0 && p <= keys[r - 1]) return indexBySearch(keys, sorted, out);
    while (j < sorted.length && sorted[j] < p) j++;
    out[r] = j < sorted.length && sorted[j] === p ? j : -1;
  }
  return out;
}

function indexBySearch(keys: Int32Array, sorted: Int32Array, out: Int32Array): Int32Array {
  for (let r = 0; r < keys.length; r++) out[r] = indexOf(sorted, keys[r]);
  return out;
}

/** Index of a permaticker in `sorted`, or -1. */
export function indexOf(sorted: Int32Array, permaticker: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] === permaticker) return mid;
    if (sorted[mid] < permaticker) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

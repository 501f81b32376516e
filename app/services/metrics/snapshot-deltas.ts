import { fromEpochDay } from '../dates';
import { decodeSnapshotValues, float32Decimal } from './snapshot-values';

// Stored snapshot columns as changes from the row before. Most of a month-end's values repeat the
// month before: a company's revenue, margins and growth change only when it files (measured on the
// 6,000-company demo: 181 of 259 metrics are less than half as large stored this way, the whole
// table half). So a (date, block, metric) BLOB may hold, instead of every Float32 value, only the
// values that differ, bit for bit, from the same block and metric on the previous stored date:
//
//   [0x44] [the previous date: Int32 epoch day] [bitmap: one bit per row, set = stored below]
//   [the set rows' Float32 values] [0-3 zero bytes]
//
// padded to a length of 4k + 1, which no full column has (Float32 columns are 4 bytes a row,
// Float64 ones 8), so the length tells the formats apart. A row whose permaticker was not in the
// previous date's block is always stored. Decoding gives back exactly the full column's bits, and
// refuses a change list whose row before is not the date it names (a date added or removed in
// between would otherwise turn into wrong numbers without a word).
//
// Chains are kept short so that one date is cheap to read on its own: the first row of every
// chain period (CHAIN_YEARS calendar years), the latest day, and any row whose previous date the
// build did not compute are stored in full (snapshots.server.ts decides; it also keeps them as
// the whole chain of a date).

const DELTA_TAG = 0x44;

/**
 * Calendar years a chain of changes may span: its first stored date holds every column in full.
 * One. Measured on the 6,000-company × 25-year demo: five-year chains made the file 36 MB smaller
 * (983 → 947 MB), but a page reading one past date alone (the screener or the market overview as
 * of a date) then decodes up to five years of month-ends instead of one, up to four times as long
 * (all metrics of a December, on a busy machine: 1–2 s → about 4 s).
 */
const CHAIN_YEARS = 1;

/** The first day (`YYYY-01-01`) of the chain period holding `day`. */
export function chainPeriodStart(day: number): string {
  const year = Number(fromEpochDay(day).slice(0, 4));
  return `${String(year - (((year % CHAIN_YEARS) + CHAIN_YEARS) % CHAIN_YEARS)).padStart(4, '0')}-01-01`;
}

/** Whether a stored column holds only the changes from the row before. */
export function isDeltaColumn(bytes: Uint8Array): boolean {
  return bytes.byteLength % 4 === 1 && bytes[0] === DELTA_TAG;
}

/** A block's row on one date (epoch day): its permatickers (ascending) and one column's Float32 bits. */
export type ColumnRow = { day: number; perms: Int32Array; bits: Uint32Array };

/** Bytes before the bitmap: the tag and the previous date. */
const HEADER = 5;

function deltaLength(mapBytes: number, count: number): number {
  const body = HEADER + mapBytes + 4 * count;
  return body + ((1 - (body % 4) + 4) % 4);
}

/** The little-endian Float32 bits of a full column (copied: blob bytes may be unaligned views). */
export function columnBits(bytes: Uint8Array): Uint32Array {
  const bits = new Uint32Array(bytes.byteLength / 4);
  new Uint8Array(bits.buffer).set(bytes);
  return bits;
}

/**
 * For each row of `perms`, the index of the same permaticker in `prevPerms` (both ascending), or
 * -1: the same for every metric of a block's day, so a build matches them once a day, not once
 * per metric.
 */
export function rowsBefore(prevPerms: Int32Array, perms: Int32Array): Int32Array {
  const at = new Int32Array(perms.length);
  let j = 0;
  for (let i = 0; i < perms.length; i++) {
    const p = perms[i];
    while (j < prevPerms.length && prevPerms[j] < p) j++;
    at[i] = j < prevPerms.length && prevPerms[j] === p ? j : -1;
  }
  return at;
}

/**
 * The delta form of `row` against `prev` (the same block and metric on the previous stored date),
 * or null when it would not be smaller than the full column. `before` is rowsBefore(prev.perms,
 * row.perms) when the caller has it.
 */
export function encodeColumnDelta(
  prev: ColumnRow,
  row: ColumnRow,
  before: Int32Array = rowsBefore(prev.perms, row.perms),
): Uint8Array | null {
  const n = row.perms.length;
  const mapBytes = (n + 7) >> 3;
  const changed = new Uint8Array(mapBytes);
  const prevBits = prev.bits;
  const bits = row.bits;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const j = before[i];
    if (j >= 0 && prevBits[j] === bits[i]) continue;
    changed[i >> 3] |= 1 << (i & 7);
    count++;
  }
  const length = deltaLength(mapBytes, count);
  if (length >= 4 * n) return null;
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  out[0] = DELTA_TAG;
  view.setInt32(1, prev.day, true);
  out.set(changed, HEADER);
  let at = HEADER + mapBytes;
  for (let i = 0; i < n; i++) {
    if ((changed[i >> 3] & (1 << (i & 7))) === 0) continue;
    view.setUint32(at, bits[i], true);
    at += 4;
  }
  return out;
}

/**
 * One block's columns, date after date, in their stored form: as the changes from the block's
 * previous date where that date is the one `chainFrom` names (snapshots.server.ts decides which
 * dates may be) and the changes are smaller. Each block is evaluated once, in date order, by one
 * thread, which keeps its block's BlockChain.
 */
export class BlockChain {
  private last: { day: number; perms: Int32Array; bits: Uint32Array[] } | null = null;

  /** The stored form of the block's columns on `day` (`values`: each metric's full column). */
  encode(day: number, perms: Int32Array, values: Uint8Array[], chainFrom: number): Uint8Array[] {
    // Copied, all of the day's columns into one array: the caller hands the arrays on (a worker
    // transfers their buffers), and one allocation a day costs less than one per metric.
    let total = 0;
    for (const v of values) {
      if (v.byteLength % 4 !== 0) throw new Error(`A snapshot column of ${v.byteLength} bytes is not Float32 values (4 bytes each).`);
      total += v.byteLength;
    }
    const all = new Uint32Array(total >> 2);
    const bytes = new Uint8Array(all.buffer);
    const bits: Uint32Array[] = [];
    let at = 0;
    for (const v of values) {
      bytes.set(v, at);
      bits.push(all.subarray(at >> 2, (at + v.byteLength) >> 2));
      at += v.byteLength;
    }
    const before = this.last;
    this.last = { day, perms: perms.slice(), bits };
    if (before === null || before.day !== chainFrom) return values;
    const rows = rowsBefore(before.perms, perms);
    return values.map(
      (full, m) =>
        encodeColumnDelta({ day: before.day, perms: before.perms, bits: before.bits[m] }, { day, perms, bits: bits[m] }, rows) ?? full,
    );
  }
}

function applyDelta(prev: ColumnRow, perms: Int32Array, day: number, bytes: Uint8Array): Uint32Array {
  const n = perms.length;
  const mapBytes = (n + 7) >> 3;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const after = bytes.byteLength >= HEADER ? view.getInt32(1, true) : Number.NaN;
  if (after !== prev.day)
    throw new Error(
      `The stored snapshot of ${fromEpochDay(day)} holds the changes from ${Number.isNaN(after) ? 'no date' : fromEpochDay(after)}, but the row before it is of ${fromEpochDay(prev.day)}.`,
    );
  let count = 0;
  for (let k = 0; k < mapBytes; k++) {
    let b = bytes[HEADER + k];
    if (k === mapBytes - 1 && n % 8 !== 0) b &= (1 << (n % 8)) - 1;
    while (b !== 0) {
      b &= b - 1;
      count++;
    }
  }
  if (bytes.byteLength !== deltaLength(mapBytes, count))
    throw new Error(`A stored snapshot delta has ${bytes.byteLength} bytes, not what its ${n} rows and ${count} changes take.`);
  const bits = new Uint32Array(n);
  let at = HEADER + mapBytes;
  let j = 0;
  for (let i = 0; i < n; i++) {
    if ((bytes[HEADER + (i >> 3)] & (1 << (i & 7))) !== 0) {
      bits[i] = view.getUint32(at, true);
      at += 4;
      continue;
    }
    const p = perms[i];
    while (j < prev.perms.length && prev.perms[j] < p) j++;
    if (!(j < prev.perms.length && prev.perms[j] === p))
      throw new Error(`A stored snapshot delta keeps the value of permaticker ${p}, which the row before does not have.`);
    bits[i] = prev.bits[j];
  }
  return bits;
}

const scratch = new Float32Array(1);
const scratchBits = new Uint32Array(scratch.buffer);

/**
 * Reads one block's stored columns of one metric in date order: a delta needs the row before
 * it, which this keeps. `decode` writes the values of the row of `day` (as snapshot-values.ts
 * rounds them) into `out` at `at`, or only advances the chain when `out` is null.
 */
export class ColumnChain {
  private last: ColumnRow | null = null;

  decode(bytes: Uint8Array, perms: Int32Array, day: number, out: Float64Array | null, at: number): void {
    let bits: Uint32Array;
    if (isDeltaColumn(bytes)) {
      if (!this.last) throw new Error(`The stored snapshot of ${fromEpochDay(day)} holds changes but has no full row before it.`);
      bits = applyDelta(this.last, perms, day, bytes);
    } else if (bytes.byteLength === perms.length * 4) {
      bits = columnBits(bytes);
    } else {
      // Older stores' Float64 columns (never followed by a delta).
      this.last = null;
      if (out) decodeSnapshotValues(bytes, perms.length, out, at);
      return;
    }
    this.last = { day, perms, bits };
    if (!out) return;
    for (let i = 0; i < bits.length; i++) {
      scratchBits[0] = bits[i];
      const v = scratch[0];
      out[at + i] = v === v ? float32Decimal(v) : Number.NaN;
    }
  }
}

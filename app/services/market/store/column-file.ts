// Named typed arrays in one byte buffer, readable without parsing values: "QCOL1\n", a 4-byte
// little-endian header length, a JSON header { fields: [{ name, type, length, offset }] }, then
// each array at its offset (8-byte aligned). Used by the market column caches and stored backtest
// results.

export type ColumnType = 'i32' | 'f64';
export type ColumnSet = Record<string, Int32Array | Float64Array>;

const MAGIC = Buffer.from('QCOL1\n');

type Header = { fields: { name: string; type: ColumnType; length: number; offset: number }[] };

function typeOf(a: Int32Array | Float64Array): ColumnType {
  return a instanceof Int32Array ? 'i32' : 'f64';
}

export function encodeColumns(columns: ColumnSet): Buffer {
  const names = Object.keys(columns);
  const fields: Header['fields'] = [];
  let offset = 0;
  for (const name of names) {
    const a = columns[name];
    fields.push({ name, type: typeOf(a), length: a.length, offset });
    offset += Math.ceil(a.byteLength / 8) * 8;
  }
  const header = Buffer.from(JSON.stringify({ fields } satisfies Header));
  const headerEnd = Math.ceil((MAGIC.length + 4 + header.length) / 8) * 8;
  const out = Buffer.alloc(headerEnd + offset);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(header.length, MAGIC.length);
  header.copy(out, MAGIC.length + 4);
  for (let k = 0; k < names.length; k++) {
    const a = columns[names[k]];
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).copy(out, headerEnd + fields[k].offset);
  }
  return out;
}

export function decodeColumns(bytes: Buffer): ColumnSet {
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('Not a column cache file');
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  const header = JSON.parse(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength).toString()) as Header;
  const headerEnd = Math.ceil((MAGIC.length + 4 + headerLength) / 8) * 8;
  // Typed arrays need aligned offsets: a pooled Buffer may start anywhere, so copy it then.
  const base = bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(bytes);
  const out: ColumnSet = {};
  for (const f of header.fields) {
    const at = base.byteOffset + headerEnd + f.offset;
    out[f.name] = f.type === 'i32' ? new Int32Array(base.buffer, at, f.length) : new Float64Array(base.buffer, at, f.length);
  }
  return out;
}

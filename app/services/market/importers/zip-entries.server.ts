import { inflateSync } from 'fflate';
import { ImportFileError } from '../store/records';

// Reads a zip's entries one at a time. SEC's bulk companyfacts.zip holds ~18,000 JSON files and
// several GB once inflated, so inflating everything at once (fflate's unzipSync) would not fit in
// memory; this walks the central directory and inflates each entry only when asked.

export type ZipEntry = { name: string; read(): Uint8Array };

export function zipEntries(zip: Uint8Array, file: string): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ImportFileError(file, null, 'not a zip file (no end of central directory)');
  const count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || offset === 0xffffffff)
    throw new ImportFileError(file, null, 'ZIP64 archives are not supported; unpack it into a folder instead');
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (view.getUint32(offset, true) !== 0x02014b50)
      throw new ImportFileError(file, null, `corrupt zip central directory at entry ${i + 1}`);
    const method = view.getUint16(offset + 10, true);
    const compressedSize = view.getUint32(offset + 20, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const localHeader = view.getUint32(offset + 42, true);
    const name = decoder.decode(zip.subarray(offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    entries.push({
      name,
      read() {
        if (view.getUint32(localHeader, true) !== 0x04034b50) throw new ImportFileError(file, null, `corrupt zip entry ${name}`);
        const start = localHeader + 30 + view.getUint16(localHeader + 26, true) + view.getUint16(localHeader + 28, true);
        const data = zip.subarray(start, start + compressedSize);
        if (method === 0) return data;
        if (method === 8) return inflateSync(data);
        throw new ImportFileError(file, null, `zip entry ${name} uses unsupported compression method ${method}`);
      },
    });
  }
  return entries;
}

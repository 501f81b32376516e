import { isIsoDate, type IsoDate } from '../../dates';
import { ImportFileError } from '../store/records';
import { csvRecords } from './csv-records';

// A CSV with a header, read into rows that remember their line, with typed cell readers that
// throw ImportFileError(file, line) on anything malformed. Shared by the CSV importers.

export type CsvRow = { line: number; cells: string[] };

export class CsvTable {
  readonly index: Map<string, number>;

  constructor(
    readonly file: string,
    readonly header: string[],
    readonly rows: CsvRow[],
  ) {
    this.index = new Map(header.map((h, i) => [h.trim().toLowerCase(), i]));
  }

  has(column: string): boolean {
    return this.index.has(column);
  }

  fail(row: CsvRow, reason: string): never {
    throw new ImportFileError(this.file, row.line, reason);
  }

  text(row: CsvRow, column: string): string {
    const i = this.index.get(column);
    return i === undefined ? '' : (row.cells[i] ?? '').trim();
  }

  number(row: CsvRow, column: string): number | null {
    const raw = this.text(row, column);
    if (raw === '') return null;
    const value = Number(raw);
    if (!Number.isFinite(value)) this.fail(row, `${column} "${raw}" is not a number`);
    return value;
  }

  date(row: CsvRow, column: string, required: true): IsoDate;
  date(row: CsvRow, column: string, required?: false): IsoDate | null;
  date(row: CsvRow, column: string, required = false): IsoDate | null {
    const raw = this.text(row, column);
    if (raw === '' && !required) return null;
    const candidate = raw.slice(0, 10);
    if (!isIsoDate(candidate) || (raw.length > 10 && !/^[ T]/.test(raw.slice(10)))) this.fail(row, `${column} "${raw}" is not a date`);
    return candidate;
  }
}

export function readCsvTable(text: string, file: string, required: readonly string[]): CsvTable {
  const records = csvRecords(text, file);
  if (records.length === 0) throw new ImportFileError(file, 1, 'empty file: no header');
  const header = records[0].cells.map((h) => h.trim());
  const table = new CsvTable(file, header, records.slice(1));
  const missing = required.filter((c) => !table.has(c));
  if (missing.length > 0) throw new ImportFileError(file, 1, `missing column(s) ${missing.join(', ')} (header: ${header.join(',')})`);
  return table;
}

/** The first line of a CSV text, lower-cased column names: enough to tell which table it is. */
export function headerOf(text: string): string[] {
  const end = text.indexOf('\n');
  const first = (end < 0 ? text : text.slice(0, end)).replace(/^\uFEFF/, '').replace(/\r$/, '');
  return first.split(',').map((h) => h.trim().replace(/^"|"$/g, '').toLowerCase());
}

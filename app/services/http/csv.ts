import { formatNumberForExport, NOT_AVAILABLE } from './numbers';

// The one CSV writer and the one CSV response of Quarry: every download (screener, watchlist,
// backtest, company tabs, data browser, home page) is a CsvTable written and sent from here, so
// quoting, the formula-injection guard, missing values and number text follow one rule.

export type CsvCell = string | number | boolean | null | undefined;
export type CsvRow = readonly CsvCell[];
export type CsvTable = { header: readonly string[]; rows: readonly CsvRow[] };

/**
 * A text that starts with one of these runs as a formula when a spreadsheet opens the file
 * (=, +, - and @ start formulas; a leading tab or line break hides what follows), so it is
 * written behind a single quote, which spreadsheets show as text. Numbers are not text: -5 stays -5.
 */
const FORMULA_START = /^[=+\-@\t\r\n]/;
/** RFC 4180: a field with a separator, a quote or a line break is quoted, inner quotes doubled. */
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: missing and non-finite values read n/a, numbers have no float noise, text is defused and quoted. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return NOT_AVAILABLE;
  if (typeof value === 'number') return formatNumberForExport(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: header then rows, CRLF line ends (RFC 4180), a final line end. */
export function toCsv(table: CsvTable): string {
  const lines = [table.header, ...table.rows].map((row) => row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** A download file name: only letters, digits, dot, dash and underscore (no header injection, no path). */
export function csvFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  return (safe || 'download').slice(0, 120);
}

// A CSV is data, never a page: the browser must not sniff it into HTML, cache it (it may be one
// user's watchlist) or run anything in it if it is opened in a tab.
const CSV_HEADERS: Record<string, string> = {
  'Content-Type': 'text/csv; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
  'Referrer-Policy': 'no-referrer',
};

/** The download of one table, as an attachment named `fileName` (made safe). */
export function csvResponse(table: CsvTable, fileName: string): Response {
  return new Response(toCsv(table), {
    headers: { ...CSV_HEADERS, 'Content-Disposition': `attachment; filename="${csvFileName(fileName)}"` },
  });
}

/** A table whose rows come in batches (read as they are sent): a long one is never one string. */
export type CsvStream = { header: readonly string[]; batches: AsyncIterable<readonly CsvRow[]> };

const lineOf = (row: CsvRow) => `${row.map(csvCell).join(',')}\r\n`;

/** The same file as `toCsv` writes, as a stream of chunks: the header, then one chunk a batch. */
export function csvStream(table: CsvStream): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let rows: AsyncIterator<readonly CsvRow[]> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(lineOf(table.header)));
    },
    async pull(controller) {
      rows ??= table.batches[Symbol.asyncIterator]();
      // A macrotask between batches: the rows of a batch may all be ready without any I/O, and the
      // process's other requests are answered in between.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const next = await rows.next();
      if (next.done) return controller.close();
      if (next.value.length) controller.enqueue(encoder.encode(next.value.map(lineOf).join('')));
    },
    async cancel() {
      await rows?.return?.();
    },
  });
}

/** The download of a table streamed batch by batch (`csvStream`), as an attachment named `fileName`. */
export function csvStreamResponse(table: CsvStream, fileName: string): Response {
  return new Response(csvStream(table), {
    headers: { ...CSV_HEADERS, 'Content-Disposition': `attachment; filename="${csvFileName(fileName)}"` },
  });
}

/** A refused download (bad query, not found, not finished) explained in one line of plain text. */
export function csvRefusal(status: number, text: string): Response {
  return new Response(`${text}\n`, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
  });
}

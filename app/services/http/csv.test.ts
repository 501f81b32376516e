import { describe, expect, it } from 'vitest';
import { csvCell, csvFileName, csvRefusal, csvResponse, toCsv } from './csv';
import { formatNumberForExport } from './numbers';

// What a spreadsheet user gets from every download of the app: hostile text cannot run as a
// formula or break the row, missing values read n/a, and numbers carry no binary noise.

/** Parses RFC 4180 text back into fields, the way a spreadsheet reads it. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
    ['\n=1', `"'\n=1"`],
  ])('writes the formula-looking text %j as text: %s', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it('quotes separators, quotes and line breaks and leaves plain text alone', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('Acme Corp.')).toBe('Acme Corp.');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('')).toBe('');
  });

  it('reads n/a for every missing or non-finite value', () => {
    for (const v of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) expect(csvCell(v)).toBe('n/a');
  });

  it('writes numbers as numbers: negatives unquoted, no float noise, no -0', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(0.1 + 0.2)).toBe('0.3');
    expect(csvCell(0.07 * 100)).toBe('7');
    expect(csvCell(-0)).toBe('0');
    expect(csvCell(-1e-20)).toBe('-1e-20');
    expect(csvCell(1234567.891)).toBe('1234567.891');
    expect(csvCell(true)).toBe('true');
  });
});

describe('formatNumberForExport', () => {
  it('keeps every real digit of a source value (12 significant, integers whole) and drops the noise', () => {
    expect(formatNumberForExport(1 / 3)).toBe('0.333333333333');
    expect(formatNumberForExport(123456789012345)).toBe('123456789012345');
    expect(formatNumberForExport(1.1 * 1.1)).toBe('1.21');
    expect(formatNumberForExport(null)).toBe('n/a');
  });
});

describe('toCsv', () => {
  it('round-trips hostile rows through a CSV reader cell for cell', () => {
    const hostile = ['=cmd|"/c calc"!A1', '+', '-', '@', '\tx', 'a\r\nb', '"', ',', "'already quoted"];
    const text = toCsv({ header: ['text', 'number'], rows: hostile.map((h, i) => [h, i - 4]) });
    expect(text.endsWith('\r\n')).toBe(true);
    const parsed = parseCsv(text);
    expect(parsed[0]).toEqual(['text', 'number']);
    expect(parsed.slice(1).map((r) => r.length)).toEqual(hostile.map(() => 2));
    parsed.slice(1).forEach((r, i) => {
      const expected = /^[=+\-@\t\r\n]/.test(hostile[i]) ? `'${hostile[i]}` : hostile[i];
      expect(r).toEqual([expected, String(i - 4)]);
    });
  });

  it('writes missing values as n/a in place', () => {
    expect(toCsv({ header: ['a', 'b', 'c'], rows: [[null, Number.NaN, 1]] })).toBe('a,b,c\r\nn/a,n/a,1\r\n');
  });
});

describe('csvResponse', () => {
  it('is a no-store, nosniff attachment with a safe file name', async () => {
    const r = csvResponse({ header: ['x'], rows: [[1]] }, '../My "list"\r\nSet-Cookie: a=b.csv');
    expect(r.status).toBe(200);
    expect(r.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('Cache-Control')).toBe('no-store');
    expect(r.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(r.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    expect(r.headers.get('Content-Disposition')).toBe('attachment; filename="My-list-Set-Cookie-a-b.csv"');
    expect(await r.text()).toBe('x\r\n1\r\n');
  });

  it('names an unnamed download and refuses in plain text', async () => {
    expect(csvFileName('///')).toBe('download');
    const r = csvRefusal(400, 'Unknown table.');
    expect(r.status).toBe(400);
    expect(r.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(await r.text()).toBe('Unknown table.\n');
  });
});

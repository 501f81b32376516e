import { jsonResponse } from '../http/api.server';
import { unprocessable } from '../http/errors';
import { parseAsOf } from './as-of';
import { companyHeader, type CompanyHeader } from './company-pages.server';
import { csvResponseHeaders, toCsv } from '../data-browser/data-browser';
import type { Table } from './table-exports';

// Shared steps of the company/market JSON + CSV endpoints (thin routes call these).

export type Format = 'json' | 'csv';

export function formatOf(url: URL): Format {
  const f = url.searchParams.get('format') ?? 'json';
  if (f !== 'json' && f !== 'csv') throw unprocessable('`format` must be json or csv.', { format: ['Must be json or csv.'] });
  return f;
}

export function asOfOf(url: URL): string | null {
  const p = parseAsOf(url.searchParams.get('as_of'));
  if (!p.ok) throw unprocessable(p.message, { as_of: [p.message] });
  return p.asOf;
}

export async function apiCompany(id: string | undefined): Promise<CompanyHeader> {
  return companyHeader(id ?? '');
}

export function csvResponse(table: Table, filename: string): Response {
  return new Response(toCsv(table.header, table.rows), { headers: csvResponseHeaders(filename) });
}

export function respond(format: Format, json: unknown, table: () => Table, filename: string): Response {
  return format === 'csv' ? csvResponse(table(), filename) : jsonResponse(json);
}

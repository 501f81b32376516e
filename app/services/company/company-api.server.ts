import { jsonResponse } from '../http/api.server';
import { unprocessable } from '../http/errors';
import { AS_OF_PARAM, asOfOrThrow } from '../http/as-of';
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
  return asOfOrThrow(url.searchParams.get(AS_OF_PARAM));
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

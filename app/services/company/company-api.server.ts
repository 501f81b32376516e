import { jsonResponse } from '../http/api.server';
import { unprocessable } from '../http/errors';
import { AS_OF_PARAM, asOfOrThrow } from '../http/as-of';
import { companyHeader, type CompanyHeader } from './company-pages.server';
import { csvResponse, type CsvTable } from '../http/csv';

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

export function respond(format: Format, json: unknown, table: () => CsvTable, filename: string): Response {
  return format === 'csv' ? csvResponse(table(), filename) : jsonResponse(json);
}

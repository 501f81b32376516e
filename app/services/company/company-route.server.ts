import type { IsoDate } from '../dates';
import { orPageError } from '../http/page-errors';
import { parseAsOf } from '../http/as-of';
import { companyHeader, type CompanyHeader } from './company-pages.server';

// What every /company/{id}/… loader needs after guard(): the company (unknown ⇒ the 404 page,
// drawn in the layout) and the as-of date (a bad one is reported on the page with status 400,
// never a 500).

export type CompanyPageContext = { company: CompanyHeader; asOf: IsoDate | null; asOfError: string | null; url: URL };

export async function companyPageContext(request: Request, id: string | undefined): Promise<CompanyPageContext> {
  const url = new URL(request.url);
  const company = await orPageError(companyHeader(id ?? ''));
  const parsed = parseAsOf(url.searchParams.get('as_of'));
  return { company, asOf: parsed.ok ? parsed.asOf : null, asOfError: parsed.ok ? null : parsed.message, url };
}

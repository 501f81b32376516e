import type { IsoDate } from '../dates';
import { isDomainError } from '../http/errors';
import { parseAsOf } from './as-of';
import { companyHeader, type CompanyHeader } from './company-pages.server';

// What every /company/{id}/… loader needs after guard(): the company (unknown ⇒ thrown 404
// Response, which the root error boundary renders as the 404 page) and the as-of date (a bad one
// is reported on the page with status 400, never a 500).

export type CompanyPageContext = { company: CompanyHeader; asOf: IsoDate | null; asOfError: string | null; url: URL };

/** Domain errors of the market services as thrown Responses for page loaders. */
export function asPageResponse(e: unknown): unknown {
  if (isDomainError(e)) return new Response(e.detail, { status: e.status });
  return e;
}

export async function companyPageContext(request: Request, id: string | undefined): Promise<CompanyPageContext> {
  const url = new URL(request.url);
  let company: CompanyHeader;
  try {
    company = await companyHeader(id ?? '');
  } catch (e) {
    throw asPageResponse(e);
  }
  const parsed = parseAsOf(url.searchParams.get('as_of'));
  return { company, asOf: parsed.ok ? parsed.asOf : null, asOfError: parsed.ok ? null : parsed.message, url };
}

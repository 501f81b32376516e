import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { guard } from '~/services/auth/guard.server';
import { asOfQuery } from '~/services/http/as-of';
import { companyPageContext } from '~/services/company/company-route.server';

// /company/{id} → /company/{permaticker}/overview (the stable id, the as-of date kept).
export async function loader({ request, params }: LoaderFunctionArgs) {
  await guard(request);
  const { company, url } = await companyPageContext(request, params.id);
  const asOf = url.searchParams.get('as_of');
  throw redirect(`/company/${company.permaticker}/overview${asOfQuery(asOf || null)}`);
}

// Never shown (the loader always redirects or throws), but a component makes this a page route:
// an unknown company gets the 404 page in the layout rather than a bare text answer.
export default function CompanyIndex() {
  return null;
}

import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireUser } from '~/services/auth/guard.server';
import { backtestCsv } from '~/services/backtest/page.server';

// /backtest/csv?backtest_id=…&table=curves|holdings|trades|monthly (the owner's backtest) or
// ?token=…&table=… (a shared one): the result as CSV. Bad input answers 4xx as plain text.

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  return backtestCsv(user.id, new URL(request.url).searchParams);
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { requireAccount } from '~/services/auth/api.server';
import { TradesPageQuery, tradesPageJson } from '~/services/backtest/api.server';
import { getBacktest } from '~/services/backtest/backtests.server';
import { handleApi, jsonResponseInTurns, methodNotAllowed, zodFieldErrors } from '~/services/http/api.server';
import { unprocessable } from '~/services/http/errors';

// GET /api/v1/backtests/{id}/trades?offset=&limit= => {total, offset, limit, next, trades}: a page
// of the finished backtest's trade log (409 before it has a result; another user's id is 404).

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.backtests.$id.trades');
    const parsed = TradesPageQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) throw unprocessable('Invalid query parameters.', zodFieldErrors(parsed.error));
    return jsonResponseInTurns(await tradesPageJson(await getBacktest(user.id, params.id ?? '', { withResult: true }), parsed.data));
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));

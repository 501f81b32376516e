import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { requireAccount } from '~/services/auth/api.server';
import { rowsPageAnswer } from '~/services/backtest/api.server';
import { getBacktest } from '~/services/backtest/backtests.server';
import { handleApi, jsonResponseInTurns, methodNotAllowed } from '~/services/http/api.server';

// GET /api/v1/backtests/{id}/holdings?offset=&limit= => {total, offset, limit, next, holdings}: a page of the
// holding rows of every rebalance in turn, each with its rebalance's number and dates
// (409 before the backtest has a result; another user's id is 404).

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.backtests.$id.holdings');
    return jsonResponseInTurns(
      await rowsPageAnswer(request, () => getBacktest(user.id, params.id ?? '', { withResult: true }), 'holdings'),
    );
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));

import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { requireAccount } from '~/services/auth/api.server';
import { rowsPageAnswer } from '~/services/backtest/api.server';
import { getBacktest } from '~/services/backtest/backtests.server';
import { handleApi, jsonResponseInTurns, methodNotAllowed } from '~/services/http/api.server';

// GET /api/v1/backtests/{id}/trades?offset=&limit= => {total, offset, limit, next, trades}: a page of the
// finished backtest's trade log, oldest first
// (409 before the backtest has a result; another user's id is 404).

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.backtests.$id.trades');
    return jsonResponseInTurns(await rowsPageAnswer(request, () => getBacktest(user.id, params.id ?? '', { withResult: true }), 'trades'));
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));

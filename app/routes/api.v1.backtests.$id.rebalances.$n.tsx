import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { requireAccount } from '~/services/auth/api.server';
import { rebalanceJson } from '~/services/backtest/api.server';
import { getBacktest } from '~/services/backtest/backtests.server';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { notFound } from '~/services/http/errors';

// GET /api/v1/backtests/{id}/rebalances/{n} => rebalance n (1-based) of the finished backtest with
// its holdings: weights, ranks and the screen's values on the signal date.

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.backtests.$id.rebalances.$n');
    const n = /^[1-9]\d{0,8}$/.test(params.n ?? '') ? Number(params.n) : Number.NaN;
    if (Number.isNaN(n)) throw notFound(`There is no rebalance ${params.n ?? ''}: rebalances are numbered from 1.`);
    return jsonResponse(await rebalanceJson(await getBacktest(user.id, params.id ?? '', { withResult: true }), n));
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));

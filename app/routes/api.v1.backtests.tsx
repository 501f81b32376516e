import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { readApiBody, requireAccount } from '~/services/auth/api.server';
import { BacktestCreateBody, backtestJson, backtestListJson, waitedBacktestAnswer } from '~/services/backtest/api.server';
import { createBacktest, listBacktests, runEnded, waitForBacktest } from '~/services/backtest/backtests.server';
import { CREATE_WAIT_SECONDS } from '~/services/backtest/limits';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { startedWorkWait } from '~/services/http/prefer';
import { badRequest } from '~/services/http/errors';

// GET /api/v1/backtests[?screener_id=] => the caller's backtests, newest first.
// POST {screener_id | screen, params, name?} => 201 the finished backtest with its result if its run
// ends within CREATE_WAIT_SECONDS (or the N of `Prefer: wait=N`), else 202 the backtest queued or
// running (poll GET /api/v1/backtests/{id}); with `Prefer: respond-async`, 202 at once.

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.backtests');
    const screenerId = new URL(request.url).searchParams.get('screener_id');
    if (screenerId !== null && !/^[A-Za-z0-9-]{1,64}$/.test(screenerId)) throw badRequest('screener_id is not a screener id.');
    return jsonResponse((await listBacktests(user.id, { screenerId: screenerId ?? undefined })).map(backtestListJson));
  });

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const { user } = await requireAccount(request, 'api.v1.backtests');
    const body = await readApiBody(request, BacktestCreateBody);
    const input = body.screener_id !== undefined ? { screenerId: body.screener_id } : { screen: body.screen };
    const created = await createBacktest(user.id, { ...input, params: body.params, name: body.name });
    const location = { Location: `/api/v1/backtests/${created.id}` };
    const wait = startedWorkWait(request, CREATE_WAIT_SECONDS);
    if (wait.seconds === 0) return jsonResponse(await backtestJson(created), { status: 202, headers: { ...location, ...wait.headers } });
    return waitForBacktest(
      user.id,
      created.id,
      wait.seconds * 1000,
      (view) =>
        waitedBacktestAnswer(request, view, {
          status: runEnded(view.status) ? 201 : 202,
          headers: { ...location, ...wait.headers },
        }),
      { signal: request.signal, known: created },
    );
  });

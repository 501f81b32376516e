import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { readApiBody, requireAccount } from '~/services/auth/api.server';
import { BacktestPatchBody, backtestJson, waitedBacktestAnswer } from '~/services/backtest/api.server';
import { cancelBacktest, deleteBacktest, getBacktest, setBacktestShared, waitForBacktest } from '~/services/backtest/backtests.server';
import { handleApi, jsonResponseInTurns, methodNotAllowed, noContent } from '~/services/http/api.server';
import { preferredWait, waitApplied } from '~/services/http/prefer';

// GET /api/v1/backtests/{id} => status, progress and, once done, the result (with `Prefer: wait=N`,
// once the run has ended or N seconds have passed).
// PATCH {shared?, cancel?} => the backtest. DELETE => 204. Another user's id is 404.

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.backtests.$id');
    const id = params.id ?? '';
    const wait = preferredWait(request);
    if (wait === null) return jsonResponseInTurns(await backtestJson(await getBacktest(user.id, id, { withResult: true })));
    return waitForBacktest(user.id, id, wait * 1000, (view) => waitedBacktestAnswer(request, view, { headers: waitApplied(wait) }), {
      signal: request.signal,
    });
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    const id = params.id ?? '';
    switch (request.method) {
      case 'PATCH': {
        const { user } = await requireAccount(request, 'api.v1.backtests.$id');
        const body = await readApiBody(request, BacktestPatchBody);
        if (body.cancel) await cancelBacktest(user.id, id);
        if (body.shared !== undefined) await setBacktestShared(user.id, id, body.shared);
        return jsonResponseInTurns(await backtestJson(await getBacktest(user.id, id, { withResult: true })));
      }
      case 'DELETE': {
        const { user } = await requireAccount(request, 'api.v1.backtests.$id');
        await deleteBacktest(user.id, id);
        return noContent();
      }
      default:
        return methodNotAllowed(['GET', 'PATCH', 'DELETE']);
    }
  });

import type { SubmissionResult } from '@conform-to/react';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { requireUser } from '~/services/auth/guard.server';
import { errorModalRedirect, redirectWithModal } from '~/services/auth/session.server';
import { cancelBacktest, getBacktest, setBacktestShared } from '~/services/backtest/backtests.server';
import { BacktestFormSchema } from '~/services/backtest/form';
import { backtestFormPage, backtestPage, deleteBacktestFromPage, isBacktestId, runBacktestFromForm } from '~/services/backtest/page.server';
import { badRequest } from '~/services/http/errors';
import { intent, intentAction } from '~/services/http/intent-action.server';
import { orPageError, pageNotFound } from '~/services/http/page-errors';
import { BacktestFormPage } from '~/ui/backtest/BacktestFormPage';
import { BacktestProgress } from '~/ui/backtest/BacktestProgress';
import { BacktestResult } from '~/ui/backtest/BacktestResult';
import { thinCurve } from '~/ui/backtest/curve';
import { RunDetails } from '~/ui/backtest/RunDetails';
import { ShareControls } from '~/ui/backtest/ShareControls';
import { ActionErrors } from '~/ui/forms/ActionErrors';
import type { ModalState } from '~/services/http/modal-state';
import { deleteBacktestModal } from '~/ui/backtest/modals';

// /backtest?screener_id=…: the run form of a saved screener and its past backtests.
// /backtest?backtest_id=…: one backtest — its progress while it runs (reloading itself), then
// its result. The guard sends /backtest without either to /screener.

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  {
    title: d
      ? d.mode === 'form'
        ? `Backtest “${d.screener.name}” · Quarry`
        : `${d.backtest.name} · Backtest · Quarry`
      : 'Backtest · Quarry',
  },
];
export const handle = { pageName: 'backtest' };

async function pageModal(url: URL, userId: string): Promise<ModalState | null> {
  if (url.searchParams.get('modal') !== 'delete') return null;
  const id = url.searchParams.get('id') ?? url.searchParams.get('backtest_id');
  if (!isBacktestId(id)) pageNotFound('Backtest not found.');
  const b = await orPageError(getBacktest(userId, id));
  return deleteBacktestModal(url, b);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const url = new URL(request.url);
  const backtestId = url.searchParams.get('backtest_id');
  const modal = await pageModal(url, user.id);
  if (backtestId !== null && backtestId.trim() !== '') {
    const page = await backtestPage(user.id, backtestId.trim(), url.searchParams);
    const body = {
      mode: 'backtest' as const,
      ...page,
      result: page.result ? { ...page.result, curve: thinCurve(page.result.curve) } : null,
      origin: url.origin,
      modal,
    };
    return data(body, { status: page.problems.length > 0 ? 400 : 200 });
  }
  const page = await backtestFormPage(user.id, (url.searchParams.get('screener_id') ?? '').trim(), url.searchParams.get('from'));
  return { mode: 'form' as const, ...page, modal };
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session } = await requireUser(request);
  const url = new URL(request.url);
  const here = `${url.pathname}${url.search}`;
  const Id = z.object({ id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/) });
  const button = { refusals: 'modal' } as const;
  return intentAction(request, {
    cancelTo: here,
    refusalModal: errorModalRedirect(session, here, 'Backtest'),
    intents: {
      run: intent(BacktestFormSchema, async (v) => {
        const screenerId = url.searchParams.get('screener_id');
        if (!isBacktestId(screenerId)) throw badRequest('A backtest runs from a saved screener: open /backtest?screener_id=….');
        const created = await runBacktestFromForm(user.id, screenerId, v);
        return redirect(`/backtest?backtest_id=${created.id}`);
      }),
      cancel: intent(
        Id,
        async (v) => {
          await cancelBacktest(user.id, v.id);
          return redirect(`/backtest?backtest_id=${v.id}`);
        },
        button,
      ),
      share: intent(
        Id,
        async (v) => {
          await setBacktestShared(user.id, v.id, true);
          return redirect(`/backtest?backtest_id=${v.id}#share-title`);
        },
        button,
      ),
      unshare: intent(
        Id,
        async (v) => {
          await setBacktestShared(user.id, v.id, false);
          return redirect(`/backtest?backtest_id=${v.id}#share-title`);
        },
        button,
      ),
      delete: intent(
        Id.extend({ confirmed: z.string().optional() }),
        async (v) => {
          if (v.confirmed !== 'true') return redirect(here);
          const { name, backTo } = await deleteBacktestFromPage(user.id, v.id);
          return redirectWithModal(session, backTo, {
            kind: 'info',
            title: 'Backtest deleted',
            content: `The backtest “${name}” was deleted.`,
            mode: 'info',
          });
        },
        button,
      ),
    },
  });
}

export default function BacktestPage() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && 'status' in actionData ? (actionData as SubmissionResult<string[]>) : undefined;
  if (d.mode === 'form') return <BacktestFormPage page={d} lastResult={lastResult} />;
  const b = d.backtest;
  const base = `/backtest?backtest_id=${b.id}`;
  const runAgain = b.screenerId ? `/backtest?screener_id=${b.screenerId}&from=${b.id}` : null;
  return (
    <div className="backtest-page">
      <h1>Backtest “{b.name}”</h1>
      <p className="backtest-actions">
        {b.screenerId ? <Link to={`/backtest?screener_id=${b.screenerId}`}>Past backtests of this screen</Link> : null}
        {runAgain && d.result ? <Link to={runAgain}>Run again with these parameters</Link> : null}
        <Link to="/backtest/methodology">Methodology</Link>
        <Link to={`${base}&modal=delete`} className="danger-link">
          Delete backtest…
        </Link>
      </p>
      {d.problems.length > 0 ? (
        <ul className="form-errors" role="alert">
          {d.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      <ActionErrors result={actionData} />
      {d.result ? (
        <>
          <ShareControls id={b.id} shareToken={b.shareToken} origin={d.origin} />
          <BacktestResult result={d.result} base={base} csvQuery={`backtest_id=${b.id}`} />
        </>
      ) : (
        <BacktestProgress
          id={b.id}
          status={b.status}
          progress={b.progress}
          message={b.message}
          error={b.error}
          runAgainHref={runAgain ?? '/screener/manage'}
          canCancel
        />
      )}
      <RunDetails
        params={b.params}
        benchmark={b.benchmark}
        screen={b.screen}
        snapshotId={b.snapshotId}
        engineVersion={b.engineVersion}
        createdAt={b.createdAt}
        finishedAt={b.finishedAt}
      />
    </div>
  );
}

import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { requireUser } from '~/services/auth/guard.server';
import { redirectWithModal } from '~/services/auth/session.server';
import { cancelBacktest, getBacktest, setBacktestShared } from '~/services/backtest/backtests.server';
import { BacktestFormSchema } from '~/services/backtest/form';
import { backtestFormPage, backtestPage, deleteBacktestFromPage, isBacktestId, runBacktestFromForm } from '~/services/backtest/page.server';
import { formFailure, invalidForm } from '~/services/http/form-reply.server';
import { isDomainError } from '~/services/http/errors';
import { BacktestForm } from '~/ui/backtest/BacktestForm';
import { BacktestList } from '~/ui/backtest/BacktestList';
import { BacktestProgress } from '~/ui/backtest/BacktestProgress';
import { BacktestResult } from '~/ui/backtest/BacktestResult';
import { thinCurve } from '~/ui/backtest/curve';
import { RunDetails } from '~/ui/backtest/RunDetails';
import { ShareControls } from '~/ui/backtest/ShareControls';
import type { ModalState } from '~/services/http/modal-state';

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

const Id = z.string().regex(/^[A-Za-z0-9-]{1,64}$/);
const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('cancel'), id: Id }),
  z.object({ intent: z.literal('share'), id: Id }),
  z.object({ intent: z.literal('unshare'), id: Id }),
  z.object({ intent: z.literal('delete'), id: Id, confirmed: z.string().optional() }),
]);

function deleteModal(url: URL, id: string, name: string): ModalState {
  return {
    kind: 'confirm',
    title: 'Delete backtest?',
    content: `The backtest “${name}” and its result will be deleted for good.`,
    action: `/backtest?${url.searchParams.has('backtest_id') ? `backtest_id=${encodeURIComponent(id)}` : `screener_id=${encodeURIComponent(url.searchParams.get('screener_id') ?? '')}`}`,
    confirmLabel: 'Delete backtest',
    danger: true,
    fields: { intent: 'delete', id },
  };
}

async function pageModal(url: URL, userId: string): Promise<ModalState | null> {
  if (url.searchParams.get('modal') !== 'delete') return null;
  const id = url.searchParams.get('id') ?? url.searchParams.get('backtest_id');
  if (!isBacktestId(id)) throw new Response('Backtest not found.', { status: 404 });
  const b = await getBacktest(userId, id).catch((e: unknown) => {
    if (isDomainError(e) && e.status === 404) throw new Response(e.detail, { status: 404 });
    throw e;
  });
  return deleteModal(url, b.id, b.name);
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
  const formData = await request.formData();
  // Cancel or close of the confirm modal posts cancelled=true: nothing changes.
  if (formData.get('cancelled') === 'true') return redirect(here);
  try {
    if (formData.get('intent') === 'run') {
      const submission = parseWithZod(formData, { schema: BacktestFormSchema });
      if (submission.status !== 'success') return invalidForm(submission);
      const screenerId = url.searchParams.get('screener_id');
      if (!isBacktestId(screenerId))
        return data({ detail: 'A backtest runs from a saved screener: open /backtest?screener_id=….' }, { status: 400 });
      try {
        const created = await runBacktestFromForm(user.id, screenerId, submission.value);
        return redirect(`/backtest?backtest_id=${created.id}`);
      } catch (e) {
        if (isDomainError(e) && e.status === 404) throw e;
        return formFailure(submission, e);
      }
    }
    const parsed = ActionSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return data({ detail: 'Unknown action.' }, { status: 400 });
    const v = parsed.data;
    switch (v.intent) {
      case 'cancel':
        await cancelBacktest(user.id, v.id);
        return redirect(`/backtest?backtest_id=${v.id}`);
      case 'share':
      case 'unshare':
        await setBacktestShared(user.id, v.id, v.intent === 'share');
        return redirect(`/backtest?backtest_id=${v.id}#share-title`);
      case 'delete': {
        if (v.confirmed !== 'true') return redirect(here);
        const { name, backTo } = await deleteBacktestFromPage(user.id, v.id);
        return redirectWithModal(session, backTo, {
          kind: 'info',
          title: 'Backtest deleted',
          content: `The backtest “${name}” was deleted.`,
          mode: 'info',
        });
      }
    }
  } catch (e) {
    if (isDomainError(e) && e.status === 404) throw new Response(e.detail, { status: 404 });
    throw e;
  }
}

export default function BacktestPage() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && 'status' in actionData ? (actionData as SubmissionResult<string[]>) : undefined;
  const failure = actionData && 'detail' in actionData ? String(actionData.detail) : null;
  if (d.mode === 'form') {
    return (
      <div className="backtest-page">
        <h1>Backtest “{d.screener.name}”</h1>
        <p>
          Runs the saved screen through history: on every rebalance date it is evaluated with only what was known then, including companies
          delisted later. <Link to="/backtest/methodology">Methodology</Link> ·{' '}
          <Link to={`/screener?${d.screener.query}&saved=${d.screener.id}`}>Open the screen</Link>
        </p>
        {failure ? (
          <p className="form-errors" role="alert">
            {failure}
          </p>
        ) : null}
        <section className="card" aria-labelledby="screen-title">
          <h2 id="screen-title">Screen</h2>
          {d.screener.rules.length === 0 ? <p>No rules: every company passes.</p> : null}
          <ol>
            {d.screener.rules.map((r, i) => (
              <li key={i}>
                <code>{r}</code>
              </li>
            ))}
          </ol>
          <p>Ranking: {d.screener.ranking.length === 0 ? 'none (by ticker)' : d.screener.ranking.join('; ')}.</p>
        </section>
        <section aria-labelledby="run-title">
          <h2 id="run-title">Parameters</h2>
          <BacktestForm defaults={d.defaults} lastResult={lastResult} />
        </section>
        <section aria-labelledby="past-title">
          <h2 id="past-title">Past backtests of this screen</h2>
          <BacktestList backtests={d.backtests} deleteHref={(id) => `?screener_id=${d.screener.id}&modal=delete&id=${id}`} />
        </section>
      </div>
    );
  }
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
      {failure ? (
        <p className="form-errors" role="alert">
          {failure}
        </p>
      ) : null}
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

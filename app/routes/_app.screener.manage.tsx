import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { guard, requireUser } from '~/services/auth/guard.server';
import { safeRedirectPath } from '~/services/auth/redirects';
import { errorModalRedirect, redirectWithModal } from '~/services/auth/session.server';
import { listBacktests } from '~/services/backtest/backtests.server';
import { unprocessable } from '~/services/http/errors';
import { intent, intentAction } from '~/services/http/intent-action.server';
import { orPageError } from '~/services/http/page-errors';
import { readPageForm } from '~/services/http/request-body.server';
import { ruleToText, type Screen } from '~/services/screener/model';
import { runSavedScreener } from '~/services/screener/saved-runs.server';
import {
  createScreener,
  deleteScreener,
  duplicateScreener,
  getScreener,
  listScreeners,
  renameOrThrow,
  setScreenerShared,
  updateScreener,
} from '~/services/screener/saved.server';
import { screenFromSearchParams, screenToQuery } from '~/services/screener/url';
import { BacktestList } from '~/ui/backtest/BacktestList';
import { ActionErrors } from '~/ui/forms/ActionErrors';
import { EmptyState } from '~/ui/layout/EmptyState';
import { deleteScreenerModal, renameScreenerModal } from '~/ui/screener/modals';
import { SavedScreenersTable } from '~/ui/screener/SavedScreenersTable';

// /screener/manage: the user's saved screeners — run, rename (prompt), duplicate, delete
// (confirm), share read-only, last run and match count. Every form posts here and redirects.

export const meta: MetaFunction = () => [{ title: 'Saved screeners · Quarry' }];
export const handle = { pageName: 'screener-manage' };

const Id = z.object({ id: z.string().min(1).max(64) });

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await guard(request);
  if (!user) return { signedIn: false as const, screeners: [], backtests: [], modal: null, origin: '' };
  const url = new URL(request.url);
  const kind = url.searchParams.get('modal');
  // A foreign or unknown id is a 404, as everywhere else.
  const target = kind === 'rename' || kind === 'delete' ? await orPageError(getScreener(user.id, url.searchParams.get('id') ?? '')) : null;
  const screeners = (await listScreeners(user.id)).map((s) => ({
    id: s.id,
    name: s.name,
    rules: s.screen.rules.map(ruleToText),
    query: screenToQuery(s.screen),
    shareToken: s.shareToken,
    lastRunAt: s.lastRunAt,
    lastMatchCount: s.lastMatchCount,
  }));
  return {
    signedIn: true as const,
    screeners,
    backtests: await listBacktests(user.id),
    modal: target ? (kind === 'rename' ? renameScreenerModal(target) : deleteScreenerModal(target)) : null,
    origin: url.origin,
  };
}

function screenOf(query: string): Screen {
  const parsed = screenFromSearchParams(new URLSearchParams(query));
  if (!parsed.ok) throw unprocessable(parsed.errors[0].message);
  return parsed.screen;
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session } = await requireUser(request);
  const here = '/screener/manage';
  const done = (title: string, content: string, mode = 'success') =>
    redirectWithModal(session, here, { kind: 'info', title, content, mode });
  /** Saving runs the screen too: the list shows when it last ran and how many matched. */
  const open = async (id: string, title?: string) => {
    const { screener } = await runSavedScreener(user.id, id);
    const to = `/screener?${screenToQuery(screener.screen)}&saved=${screener.id}`;
    if (!title) return redirect(to);
    return redirectWithModal(session, to, { kind: 'info', title, content: `Saved as “${screener.name}”.`, mode: 'success' });
  };
  const Query = z.string().max(60_000).default('');
  const form = await readPageForm(request);
  return intentAction(form, {
    // The save-screen dialog, cancelled, leaves the visitor on the screen they were saving.
    cancelTo: safeRedirectPath(form.get('return_to'), here),
    refusalModal: errorModalRedirect(session, here, 'Could not save'),
    intents: {
      create: intent(
        z.object({ name: z.string().max(1000).default(''), query: Query }),
        async (v) => open((await createScreener(user.id, { name: renameOrThrow(v.name), screen: screenOf(v.query) })).id, 'Screen saved'),
        { refusals: 'modal' },
      ),
      update: intent(
        Id.extend({ query: Query }),
        async (v) => open((await updateScreener(user.id, v.id, { screen: screenOf(v.query) })).id, 'Screen saved'),
        { refusals: 'modal' },
      ),
      run: intent(Id, async (v) => open(v.id)),
      rename: intent(
        Id.extend({ name: z.string().max(1000).default('') }),
        async (v) => {
          const s = await updateScreener(user.id, v.id, { name: renameOrThrow(v.name) });
          return done('Renamed', `The screener is now called “${s.name}”.`);
        },
        { refusals: 'modal' },
      ),
      duplicate: intent(Id, async (v) => done('Duplicated', `Created “${(await duplicateScreener(user.id, v.id)).name}”.`), {
        refusals: 'modal',
      }),
      delete: intent(Id.extend({ confirmed: z.string().optional() }), async (v) => {
        if (v.confirmed !== 'true') return redirect(here);
        await deleteScreener(user.id, v.id);
        return done('Deleted', 'The screener was deleted.', 'info');
      }),
      share: intent(Id, async (v) => {
        await setScreenerShared(user.id, v.id, true);
        return redirect(here);
      }),
      unshare: intent(Id, async (v) => {
        await setScreenerShared(user.id, v.id, false);
        return redirect(here);
      }),
    },
  });
}

export default function ManageScreenersPage() {
  const d = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  if (!d.signedIn) {
    return (
      <>
        <h1>Saved screeners</h1>
        <EmptyState title="Sign in to save screens">
          <p>
            Guests can build and run screens in the <Link to="/screener">screener</Link>. <Link to="/register">Register</Link> (free) or{' '}
            <Link to="/login?redirectTo=%2Fscreener%2Fmanage">sign in</Link> to save them, share them and backtest them.
          </p>
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <h1>Saved screeners</h1>
      <ActionErrors result={failed} />
      {d.screeners.length === 0 ? (
        <EmptyState title="No saved screeners">
          <p>
            Screens you save from the <Link to="/screener">screener</Link> will be listed here.
          </p>
        </EmptyState>
      ) : (
        <SavedScreenersTable screeners={d.screeners} origin={d.origin} />
      )}
      <section aria-labelledby="backtests-title">
        <h2 id="backtests-title">Backtests</h2>
        <p>All your backtests. Open one to see its result, share it or delete it; the backtest page of each screener lists its own.</p>
        <BacktestList backtests={d.backtests} />
      </section>
    </>
  );
}

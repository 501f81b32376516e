import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { guard, requireUser } from '~/services/auth/guard.server';
import { safeRedirectPath } from '~/services/auth/redirects';
import { errorModalRedirect, redirectWithNotice } from '~/services/auth/session.server';
import { isDomainError } from '~/services/http/errors';
import { intent, intentAction } from '~/services/http/intent-action.server';
import { orPageError } from '~/services/http/page-errors';
import { readPageForm } from '~/services/http/request-body.server';
import { createColumnSet, deleteColumnSet, getColumnSet, listColumnSets, updateColumnSet } from '~/services/screener/column-sets.server';
import { ActionErrors } from '~/ui/forms/ActionErrors';
import { EmptyState } from '~/ui/layout/EmptyState';
import { ColumnSetsTable } from '~/ui/screener/ColumnSetsTable';
import { deleteColumnSetModal, renameColumnSetModal } from '~/ui/screener/modals';

// /screener/columns: the user's saved column sets of the screener results — show one in the
// screener, rename (prompt), delete (confirm). The screener's "Save column set" form posts here
// (intent create) and goes back to the results it came from, with the answer shown there.

export const meta: MetaFunction = () => [{ title: 'Column sets · Quarry' }];
export const handle = { pageName: 'screener-columns' };

const Id = z.object({ id: z.string().min(1).max(64) });
const Name = z.string().max(1000).default('');

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await guard(request);
  if (!user) return { signedIn: false as const, sets: [], modal: null };
  const url = new URL(request.url);
  const kind = url.searchParams.get('modal');
  // A foreign or unknown id is a 404, as everywhere else.
  const target = kind === 'rename' || kind === 'delete' ? await orPageError(getColumnSet(user.id, url.searchParams.get('id') ?? '')) : null;
  const sets = (await listColumnSets(user.id)).map((s) => ({ id: s.id, name: s.name, columns: s.columns }));
  return {
    signedIn: true as const,
    sets,
    modal: target ? (kind === 'rename' ? renameColumnSetModal(target) : deleteColumnSetModal(target)) : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session } = await requireUser(request);
  const here = '/screener/columns';
  const form = await readPageForm(request);
  const done = (text: string, to = here, mode: 'success' | 'info' = 'success') => redirectWithNotice(session, to, { text, mode });
  return intentAction(form, {
    cancelTo: here,
    refusalModal: errorModalRedirect(session, here, 'Column sets'),
    intents: {
      // From the screener: the answer (or the refusal) shows on the results it came from.
      create: intent(
        z.object({ name: Name, columns: z.string().max(20_000).default(''), return_to: z.string().max(4000).optional() }),
        async (v) => {
          const to = safeRedirectPath(v.return_to, here);
          try {
            const set = await createColumnSet(user.id, { name: v.name, columns: v.columns.split(',').filter((c) => c.trim() !== '') });
            return done(`Saved the column set “${set.name}” (${set.columns.length} columns).`, to);
          } catch (e) {
            if (!isDomainError(e) || e.status >= 500 || e.status === 404) throw e;
            return redirectWithNotice(session, to, { text: e.detail, mode: 'error' });
          }
        },
      ),
      rename: intent(
        Id.extend({ name: Name }),
        async (v) => done(`The column set is now called “${(await updateColumnSet(user.id, v.id, { name: v.name })).name}”.`),
        { refusals: 'modal' },
      ),
      delete: intent(Id.extend({ confirmed: z.string().optional() }), async (v) => {
        if (v.confirmed !== 'true') return redirect(here);
        await deleteColumnSet(user.id, v.id);
        return done('The column set was deleted.', here, 'info');
      }),
    },
  });
}

export default function ColumnSetsPage() {
  const d = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  if (!d.signedIn) {
    return (
      <>
        <h1>Column sets</h1>
        <EmptyState title="Sign in to save column sets">
          <p>
            Guests can choose the columns of the <Link to="/screener">screener</Link>&rsquo;s results. <Link to="/register">Register</Link>{' '}
            (free) or <Link to="/login?redirectTo=%2Fscreener%2Fcolumns">sign in</Link> to save them as sets.
          </p>
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <h1>Column sets</h1>
      <ActionErrors result={failed} />
      <ColumnSetsTable sets={d.sets} />
    </>
  );
}

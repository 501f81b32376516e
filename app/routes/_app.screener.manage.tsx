import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { guard, requireUser } from '~/services/auth/guard.server';
import { redirectWithModal } from '~/services/auth/session.server';
import { listBacktests } from '~/services/backtest/backtests.server';
import { isDomainError } from '~/services/http/errors';
import { ruleToText } from '~/services/screener/model';
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
import { EmptyState } from '~/ui/layout/EmptyState';
import type { ModalState } from '~/services/http/modal-state';

// /screener/manage: the user's saved screeners — open, rename (prompt), duplicate, delete
// (confirm), share read-only, last run and match count. Every form posts here and redirects.

export const meta: MetaFunction = () => [{ title: 'Saved screeners · Quarry' }];
export const handle = { pageName: 'screener-manage' };

const Id = z.string().min(1).max(64);
const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('create'), name: z.string().max(1000).default(''), query: z.string().max(60_000).default('') }),
  z.object({ intent: z.literal('update'), id: Id, query: z.string().max(60_000).default('') }),
  z.object({ intent: z.literal('rename'), id: Id, name: z.string().max(1000).default('') }),
  z.object({ intent: z.literal('duplicate'), id: Id }),
  z.object({ intent: z.literal('delete'), id: Id, confirmed: z.string().optional() }),
  z.object({ intent: z.literal('share'), id: Id }),
  z.object({ intent: z.literal('unshare'), id: Id }),
]);

async function pageModal(url: URL, userId: string): Promise<ModalState | null> {
  const kind = url.searchParams.get('modal');
  const id = url.searchParams.get('id') ?? '';
  if (kind !== 'rename' && kind !== 'delete') return null;
  // A foreign or unknown id is a 404, as everywhere else.
  const s = await getScreener(userId, id).catch((e: unknown) => {
    if (isDomainError(e) && e.status === 404) throw new Response('Screener not found.', { status: 404 });
    throw e;
  });
  if (kind === 'rename') {
    return {
      kind: 'prompt',
      title: 'Rename screener',
      content: `New name for “${s.name}”.`,
      action: '/screener/manage',
      label: 'Name',
      name: 'name',
      defaultValue: s.name,
      maxLength: 100,
      fields: { intent: 'rename', id: s.id },
    };
  }
  return {
    kind: 'confirm',
    title: 'Delete screener?',
    content: `“${s.name}” will be deleted for good.`,
    action: '/screener/manage',
    confirmLabel: 'Delete screener',
    danger: true,
    fields: { intent: 'delete', id: s.id },
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await guard(request);
  if (!user) return { signedIn: false as const, screeners: [], backtests: [], modal: null, origin: '' };
  const url = new URL(request.url);
  const screeners = (await listScreeners(user.id)).map((s) => ({
    id: s.id,
    name: s.name,
    rules: s.screen.rules.map(ruleToText),
    query: screenToQuery(s.screen),
    shareToken: s.shareToken,
    lastRunAt: s.lastRunAt,
    lastMatchCount: s.lastMatchCount,
    updatedAt: s.updatedAt,
  }));
  return {
    signedIn: true as const,
    screeners,
    backtests: await listBacktests(user.id),
    modal: await pageModal(url, user.id),
    origin: url.origin,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session } = await requireUser(request);
  const formData = await request.formData();
  // Cancel or close of the prompt/confirm posts cancelled=true: nothing changes.
  if (formData.get('cancelled') === 'true') return redirect('/screener/manage');
  const submission = parseWithZod(formData, { schema: ActionSchema });
  if (submission.status !== 'success') return data({ detail: 'Unknown action.' }, { status: 400 });
  const v = submission.value;
  const fail = (detail: string) =>
    redirectWithModal(session, '/screener/manage', { kind: 'error', title: 'Could not save', error: { detail }, warning: true });
  try {
    switch (v.intent) {
      case 'create':
      case 'update': {
        const parsed = screenFromSearchParams(new URLSearchParams(v.query));
        if (!parsed.ok) return fail(parsed.errors[0].message);
        const saved =
          v.intent === 'create'
            ? await createScreener(user.id, { name: renameOrThrow(v.name), screen: parsed.screen })
            : await updateScreener(user.id, v.id, { screen: parsed.screen });
        return redirectWithModal(session, `/screener?${screenToQuery(saved.screen)}&saved=${saved.id}`, {
          kind: 'info',
          title: 'Screen saved',
          content: `Saved as “${saved.name}”.`,
          mode: 'success',
        });
      }
      case 'rename': {
        const s = await updateScreener(user.id, v.id, { name: renameOrThrow(v.name) });
        return redirectWithModal(session, '/screener/manage', {
          kind: 'info',
          title: 'Renamed',
          content: `The screener is now called “${s.name}”.`,
          mode: 'success',
        });
      }
      case 'duplicate': {
        const s = await duplicateScreener(user.id, v.id);
        return redirectWithModal(session, '/screener/manage', {
          kind: 'info',
          title: 'Duplicated',
          content: `Created “${s.name}”.`,
          mode: 'success',
        });
      }
      case 'delete': {
        if (v.confirmed !== 'true') return redirect('/screener/manage');
        await deleteScreener(user.id, v.id);
        return redirectWithModal(session, '/screener/manage', {
          kind: 'info',
          title: 'Deleted',
          content: 'The screener was deleted.',
          mode: 'info',
        });
      }
      case 'share':
      case 'unshare':
        await setScreenerShared(user.id, v.id, v.intent === 'share');
        return redirect('/screener/manage');
    }
  } catch (e) {
    if (!isDomainError(e)) throw e;
    if (e.status === 404) throw new Response(e.detail, { status: 404 });
    return fail(e.detail);
  }
}

function when(iso: string | null): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : 'never';
}

export default function ManageScreenersPage() {
  const d = useLoaderData<typeof loader>();
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
      {d.screeners.length === 0 ? (
        <EmptyState title="No saved screeners">
          <p>
            Screens you save from the <Link to="/screener">screener</Link> will be listed here.
          </p>
        </EmptyState>
      ) : (
        <div className="table-scroll">
          <table className="data-table" data-testid="saved-screeners">
            <caption className="visually-hidden">Your saved screeners</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Rules</th>
                <th scope="col">Last run</th>
                <th scope="col" className="num">
                  Matches
                </th>
                <th scope="col">Share link</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {d.screeners.map((s) => (
                <tr key={s.id}>
                  <th scope="row">
                    <Link to={`/screener?${s.query}&saved=${s.id}`}>{s.name}</Link>
                  </th>
                  <td>
                    {s.rules.length === 0 ? (
                      'none'
                    ) : (
                      <ul className="plain-list">
                        {s.rules.map((r, i) => (
                          <li key={i}>
                            <code>{r}</code>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td>{when(s.lastRunAt)}</td>
                  <td className="num">{s.lastMatchCount ?? 'n/a'}</td>
                  <td>
                    {s.shareToken ? (
                      <>
                        <a href={`/screener/shared/${s.shareToken}`}>{`${d.origin}/screener/shared/${s.shareToken}`}</a>
                        <Form method="post" className="inline-form">
                          <input type="hidden" name="intent" value="unshare" />
                          <input type="hidden" name="id" value={s.id} />
                          <button type="submit" className="button button--link">
                            Stop sharing<span className="visually-hidden"> {s.name}</span>
                          </button>
                        </Form>
                      </>
                    ) : (
                      <Form method="post" className="inline-form">
                        <input type="hidden" name="intent" value="share" />
                        <input type="hidden" name="id" value={s.id} />
                        <button type="submit" className="button button--link">
                          Create share link<span className="visually-hidden"> for {s.name}</span>
                        </button>
                      </Form>
                    )}
                  </td>
                  <td className="screener-row-actions">
                    <Link to={`/screener?${s.query}&saved=${s.id}`}>
                      Open<span className="visually-hidden"> {s.name}</span>
                    </Link>
                    <Link to={`/backtest?screener_id=${s.id}`}>
                      Backtest<span className="visually-hidden"> {s.name}</span>
                    </Link>
                    <Link to={`?modal=rename&id=${s.id}`}>
                      Rename<span className="visually-hidden"> {s.name}</span>
                    </Link>
                    <Form method="post" className="inline-form">
                      <input type="hidden" name="intent" value="duplicate" />
                      <input type="hidden" name="id" value={s.id} />
                      <button type="submit" className="button button--link">
                        Duplicate<span className="visually-hidden"> {s.name}</span>
                      </button>
                    </Form>
                    <Link to={`?modal=delete&id=${s.id}`} className="danger-link">
                      Delete<span className="visually-hidden"> {s.name}</span>
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <section aria-labelledby="backtests-title">
        <h2 id="backtests-title">Backtests</h2>
        <p>All your backtests. Open one to see its result, share it or delete it; the backtest page of each screener lists its own.</p>
        <BacktestList backtests={d.backtests} />
      </section>
    </>
  );
}

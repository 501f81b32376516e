import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { adminUserPage } from '~/services/admin/page.server';
import { deleteUserAsAdmin, setAccess, setDisabled, setSuperuser, type AdminUserDetail } from '~/services/admin/users.server';
import { requireUser } from '~/services/auth/guard.server';
import { errorModalRedirect, redirectWithModal } from '~/services/auth/session.server';
import { intent, intentAction, NO_VALUES } from '~/services/http/intent-action.server';
import { orPageError, pageNotFound } from '~/services/http/page-errors';
import { AdminUserPanels } from '~/ui/admin/AdminUserPanels';
import { ActionErrors } from '~/ui/forms/ActionErrors';
import type { ModalState } from '~/services/http/modal-state';

// /admin/users/$id: one account as a superuser sees it, and the changes: access (grant, revoke,
// follow the rules), superuser role, disable / enable, delete (confirm dialog). Every change is
// a POST form that redirects back with a message; the guard's /admin rule covers this path.

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data && 'user' in data ? data.user.email : 'User'} · Admin · Quarry` },
];
export const handle = { pageName: 'admin-user' };

const IdSchema = z.string().regex(/^[A-Za-z0-9-]{1,64}$/);

/** The account id from the URL; anything that cannot be an id is simply not found. */
function userIdOf(params: { id?: string }): string {
  const parsed = IdSchema.safeParse(params.id);
  if (!parsed.success) pageNotFound('User not found.');
  return parsed.data;
}

function pageModal(url: URL, user: AdminUserDetail): ModalState | null {
  if (url.searchParams.get('modal') !== 'delete') return null;
  return {
    kind: 'confirm',
    title: 'Delete this account?',
    content: `${user.full_name} <${user.email}> and everything saved with it (screeners, watchlists, backtests) are deleted for good. This cannot be undone.`,
    action: `/admin/users/${user.id}`,
    confirmLabel: 'Delete account',
    danger: true,
    fields: { intent: 'delete' },
  };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user: actor } = await requireUser(request);
  const id = userIdOf(params);
  const user = await orPageError(adminUserPage(actor.id, id));
  return { user, self: user.id === actor.id, modal: pageModal(new URL(request.url), user) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user: actor, session } = await requireUser(request);
  const id = userIdOf(params);
  const back = `/admin/users/${id}`;
  const done = (title: string, content: string) => redirectWithModal(session, back, { kind: 'info', title, content, mode: 'success' });
  const change = <S extends z.ZodTypeAny>(schema: S, run: (v: z.infer<S>) => Promise<Response>) =>
    intent(schema, run, { refusals: 'modal' });
  return intentAction(request, {
    cancelTo: back,
    refusalModal: errorModalRedirect(session, back, 'Could not change the account'),
    intents: {
      access: change(z.object({ access: z.enum(['grant', 'revoke', 'rules']) }), async (v) => {
        const u = await setAccess(actor.id, id, v.access);
        const how = { grant: 'is granted', revoke: 'is revoked', rules: 'now follows the rules' }[v.access];
        return done(
          'Access changed',
          `Access for ${u.email} ${how}: ${u.has_access ? 'full access' : 'no access'} from the next page they open.`,
        );
      }),
      superuser: change(z.object({ superuser: z.enum(['make', 'unmake']) }), async (v) => {
        const u = await setSuperuser(actor.id, id, v.superuser === 'make');
        return done('Role changed', u.is_superuser ? `${u.email} is now a superuser.` : `${u.email} is no longer a superuser.`);
      }),
      disable: change(NO_VALUES, async () => {
        const u = await setDisabled(actor.id, id, true);
        return done('Account disabled', `${u.email} is disabled and was signed out everywhere.`);
      }),
      enable: change(NO_VALUES, async () => {
        const u = await setDisabled(actor.id, id, false);
        return done('Account enabled', `${u.email} can sign in again.`);
      }),
      delete: change(z.object({ confirmed: z.string().optional() }), async (v) => {
        if (v.confirmed !== 'true') return redirect(back);
        const { email } = await deleteUserAsAdmin(actor.id, id);
        return redirectWithModal(session, '/admin', {
          kind: 'info',
          title: 'Account deleted',
          content: `${email} and its data were deleted.`,
          mode: 'info',
        });
      }),
    },
  });
}

export default function AdminUserPage() {
  const { user: u, self } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <>
      <p>
        <Link to="/admin">← Back to administration</Link>
      </p>
      <h1>{u.full_name}</h1>
      <ActionErrors result={failed} />
      <AdminUserPanels u={u} self={self} />
    </>
  );
}

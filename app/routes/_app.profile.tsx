import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { requireUser } from '~/services/auth/guard.server';
import { FullNameSchema } from '~/services/auth/schemas';
import { redirectWithModal, setDisplayFields, setSignedOut } from '~/services/auth/session.server';
import { deleteAccount, updateProfile } from '~/services/auth/users.server';
import { formFailure, invalidForm } from '~/services/http/form-reply.server';
import { FormErrors, TextField } from '~/ui/forms/fields';
import type { ModalState } from '~/ui/modals/modal-state';
// billing: subscription panel (issue #7 item 3)
import { loadSubscriptionPanel } from '~/services/billing/profile-panel.server';
import { SubscriptionPanel } from '~/ui/billing/SubscriptionPanel';

export const meta: MetaFunction = () => [{ title: 'Profile · Quarry' }];
export const handle = { pageName: 'profile' };

const NameFormSchema = z.object({ intent: z.literal('change-name'), full_name: FullNameSchema });

/** `?modal=` states of this page: the prompt and confirm dialogs of spec §4. */
function pageModal(modal: string | null, fullName: string): ModalState | null {
  if (modal === 'change-name') {
    return {
      kind: 'prompt',
      title: 'Change your name',
      content: 'This is the name shown on your account.',
      action: '/profile',
      label: 'Full name',
      name: 'full_name',
      defaultValue: fullName,
      maxLength: 100,
      fields: { intent: 'change-name' },
    };
  }
  if (modal === 'delete-account') {
    return {
      kind: 'confirm',
      title: 'Delete your account?',
      content: 'Your account and everything saved with it are deleted for good. This cannot be undone.',
      action: '/profile',
      confirmLabel: 'Delete account',
      danger: true,
      fields: { intent: 'delete-account' },
    };
  }
  return null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const url = new URL(request.url);
  return {
    user: { email: user.email, full_name: user.full_name, has_access: user.has_access, is_superuser: user.is_superuser, profile_picture: user.profile_picture },
    modal: pageModal(url.searchParams.get('modal'), user.full_name),
    billing: await loadSubscriptionPanel(user.id, request), // billing panel
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session } = await requireUser(request);
  const formData = await request.formData();
  // Cancel or close of a prompt/confirm posts cancelled=true: nothing changes (spec §4).
  if (formData.get('cancelled') === 'true') return redirect('/profile');
  switch (formData.get('intent')) {
    case 'change-name': {
      const submission = parseWithZod(formData, { schema: NameFormSchema });
      if (submission.status !== 'success') return invalidForm(submission);
      try {
        const updated = await updateProfile(user.id, { full_name: submission.value.full_name });
        setDisplayFields(session, updated);
      } catch (e) {
        return formFailure(submission, e);
      }
      return redirectWithModal(session, '/profile', { kind: 'info', title: 'Name changed', content: `Your name is now ${submission.value.full_name}.`, mode: 'success' });
    }
    case 'delete-account': {
      if (formData.get('confirmed') !== 'true') return redirect('/profile');
      await deleteAccount(user.id);
      setSignedOut(session);
      return redirectWithModal(session, '/register', { kind: 'info', title: 'Account deleted', content: 'Your account and its data were deleted.', mode: 'info' });
    }
    default:
      return data({ detail: 'Unknown action.' }, { status: 400 });
  }
}

export default function ProfilePage() {
  const { user, billing } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Profile</h1>
      <section className="card" aria-labelledby="account-heading">
        <h2 id="account-heading">Account</h2>
        <dl>
          <dt>E-mail</dt>
          <dd>{user.email}</dd>
          <dt>Name</dt>
          <dd data-testid="profile-name">{user.full_name}</dd>
          <dt>Access</dt>
          <dd>{user.has_access ? 'Full access' : <Link to="/finish-profile-creation">Finish your profile to get full access</Link>}</dd>
          {user.is_superuser ? (
            <>
              <dt>Role</dt>
              <dd>Administrator</dd>
            </>
          ) : null}
        </dl>
        <p>
          <Link to="?modal=change-name" className="button">
            Change name…
          </Link>
        </p>
      </section>
      <SubscriptionPanel panel={billing} />
      {/* Keyed by the name: after a change (here or in the prompt) the field shows the new one. */}
      <NameForm key={user.full_name} fullName={user.full_name} />
      <section className="card" aria-labelledby="danger-heading">
        <h2 id="danger-heading">Delete account</h2>
        <p>Deletes your account, your saved screeners, backtests and watchlists.</p>
        <Link to="?modal=delete-account" className="button button--danger">
          Delete account…
        </Link>
      </section>
    </>
  );
}

function NameForm({ fullName }: { fullName: string }) {
  const lastResult = useActionData<typeof action>();
  const result = lastResult && 'status' in lastResult ? lastResult : undefined;
  const [form, fields] = useForm({
    id: 'profile-name',
    lastResult: result,
    defaultValue: { full_name: fullName, intent: 'change-name' },
    constraint: getZodConstraint(NameFormSchema),
    shouldValidate: 'onBlur',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NameFormSchema }),
  });
  return (
    <section className="card" aria-labelledby="name-heading">
      <h2 id="name-heading">Change your name</h2>
      <Form method="post" {...getFormProps(form)} className="form">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="change-name" />
        <TextField meta={fields.full_name} label="Full name" autoComplete="name" />
        <div>
          <button type="submit" className="button button--primary">
            Save name
          </button>
        </div>
      </Form>
    </section>
  );
}

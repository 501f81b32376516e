import { readPageForm } from '~/services/http/request-body.server';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { safeRedirectPath } from '~/services/auth/redirects';
import { FinishProfileSchema } from '~/services/auth/schemas';
import { redirectWithModal, setDisplayFields } from '~/services/auth/session.server';
import { finishProfile } from '~/services/auth/users.server';
import { config } from '~/services/config.server';
import { formFailure, invalidForm } from '~/services/http/form-reply.server';
import { FormErrors, TextField } from '~/ui/forms/fields';

export const meta: MetaFunction = () => [{ title: 'Finish your profile · Quarry' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await guard(request);
  return {
    user: user
      ? { full_name: user.full_name, email: user.email, has_access: user.has_access, profile_finished: user.profile_finished }
      : null,
    billingEnabled: config().billingEnabled,
    redirectTo: safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'), ''),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session } = await guard(request);
  if (!user) throw redirect('/login?redirectTo=/finish-profile-creation');
  const formData = await readPageForm(request);
  const submission = parseWithZod(formData, { schema: FinishProfileSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  let updated: Awaited<ReturnType<typeof finishProfile>>;
  try {
    updated = await finishProfile(user.id, submission.value);
  } catch (e) {
    return formFailure(submission, e);
  }
  setDisplayFields(session, updated);
  const wanted = safeRedirectPath(formData.get('redirectTo'), '');
  if (!updated.has_access) {
    const here = wanted ? `/finish-profile-creation?${new URLSearchParams({ redirectTo: wanted })}` : '/finish-profile-creation';
    return redirectWithModal(session, here, {
      kind: 'info',
      title: 'Profile saved',
      content: 'Your profile is complete. A subscription gives you access to the screener, backtests and watchlists.',
      mode: 'info',
    });
  }
  return redirectWithModal(session, wanted || '/', {
    kind: 'info',
    title: 'Welcome to Quarry',
    content: 'Your profile is complete: the screener, backtests and watchlists are open to you.',
    mode: 'success',
  });
}

export default function FinishProfilePage() {
  const { user, billingEnabled, redirectTo } = useLoaderData<typeof loader>();
  const back = redirectTo ? `?${new URLSearchParams({ redirectTo })}` : '';
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: 'finish-profile',
    lastResult,
    defaultValue: { full_name: user?.full_name ?? '' },
    constraint: getZodConstraint(FinishProfileSchema),
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: FinishProfileSchema }),
  });
  if (!user) {
    return (
      <>
        <h1>Finish your profile</h1>
        <p>Sign in or create an account first; then you can finish your profile here.</p>
        <div className="welcome__links">
          <Link to={`/login?${new URLSearchParams({ redirectTo: `/finish-profile-creation${back}` })}`}>Sign in</Link>
          <Link to="/register">Create an account</Link>
        </div>
      </>
    );
  }
  if (user.profile_finished && user.has_access) {
    return (
      <>
        <h1>Your profile is complete</h1>
        <p>Everything in Quarry is open to you.</p>
        <Link to={redirectTo || '/'} className="button button--primary">
          {redirectTo ? 'Go on to the page you asked for' : 'Go to the home page'}
        </Link>
      </>
    );
  }
  return (
    <>
      <h1>Finish your profile</h1>
      <p>
        Signed in as <strong>{user.email}</strong>. Confirm the name we show on your account to open the screener, backtests and watchlists
        {billingEnabled ? ' (a subscription is needed too)' : ''}.
      </p>
      <Form method="post" {...getFormProps(form)} className="form">
        <FormErrors id={form.errorId} errors={form.errors} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <TextField meta={fields.full_name} label="Full name" autoComplete="name" autoFocus />
        <button type="submit" className="button button--primary">
          Finish profile
        </button>
      </Form>
      <div className="welcome__links">
        <Link to="/data-browser">Skip for now and browse data</Link>
      </div>
    </>
  );
}

import { readPageForm } from '~/services/http/request-body.server';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { confirmPasswordReset } from '~/services/auth/accounts.server';
import { requestContext } from '~/services/auth/api.server';
import { guard } from '~/services/auth/guard.server';
import { ResetConfirmSchema } from '~/services/auth/schemas';
import { redirectWithModal, setSignedOut } from '~/services/auth/session.server';
import { formFailure, invalidForm } from '~/services/http/form-reply.server';
import { FormErrors, TextField } from '~/ui/forms/fields';

export const meta: MetaFunction = () => [{ title: 'Choose a new password · Quarry' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  const url = new URL(request.url);
  // Prefilled from the link in the e-mail; the schema lowercases the e-mail on submit.
  return {
    email: (url.searchParams.get('email') ?? '').slice(0, 254),
    token: /^\d{6}$/.test(url.searchParams.get('token') ?? '') ? url.searchParams.get('token')! : '',
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await guard(request);
  const submission = parseWithZod(await readPageForm(request), { schema: ResetConfirmSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  try {
    await confirmPasswordReset(submission.value, requestContext(request));
  } catch (e) {
    return formFailure(submission, e);
  }
  // Every token of the account was revoked, this browser's included.
  setSignedOut(session);
  return redirectWithModal(session, '/login', {
    kind: 'info',
    title: 'Password changed',
    content: 'Your password was changed and you were signed out everywhere. Sign in with your new password.',
    mode: 'success',
  });
}

export default function ResetPasswordPage() {
  const defaults = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: 'reset-password',
    lastResult,
    defaultValue: { ...defaults, password: '', password_confirmation: '' },
    constraint: getZodConstraint(ResetConfirmSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetConfirmSchema }),
  });
  return (
    <>
      <h1>Choose a new password</h1>
      <Form method="post" {...getFormProps(form)} className="form">
        <FormErrors id={form.errorId} errors={form.errors} />
        <TextField meta={fields.email} label="E-mail" type="email" autoComplete="email" />
        <TextField meta={fields.token} label="Code from the e-mail" autoComplete="one-time-code" inputMode="numeric" />
        <TextField meta={fields.password} label="New password" type="password" autoComplete="new-password" hint="8 to 128 characters." />
        <TextField meta={fields.password_confirmation} label="Repeat new password" type="password" autoComplete="new-password" />
        <button type="submit" className="button button--primary">
          Change password
        </button>
      </Form>
      <div className="welcome__links">
        <Link to="/forgot-password">Send me a new code</Link>
        <Link to="/login">Back to sign in</Link>
      </div>
    </>
  );
}

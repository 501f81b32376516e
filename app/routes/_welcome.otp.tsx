import { readPageForm } from '~/services/http/request-body.server';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { verifySignIn } from '~/services/auth/accounts.server';
import { requestContext } from '~/services/auth/api.server';
import { guard } from '~/services/auth/guard.server';
import { afterSignInPath, safeRedirectPath } from '~/services/auth/redirects';
import { EmailSchema, OtpVerifySchema } from '~/services/auth/schemas';
import { redirectWithSession, setSignedIn } from '~/services/auth/session.server';
import { formFailure, invalidForm } from '~/services/http/form-reply.server';
import { FormErrors, TextField } from '~/ui/forms/fields';

export const meta: MetaFunction = () => [{ title: 'Enter your code · Quarry' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  const url = new URL(request.url);
  const email = EmailSchema.safeParse(url.searchParams.get('email') ?? '');
  if (!email.success) throw redirect('/login');
  return { email: email.data, redirectTo: safeRedirectPath(url.searchParams.get('redirectTo'), '') };
}

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await guard(request);
  const formData = await readPageForm(request);
  const submission = parseWithZod(formData, { schema: OtpVerifySchema });
  if (submission.status !== 'success') return invalidForm(submission);
  let result: Awaited<ReturnType<typeof verifySignIn>>;
  try {
    result = await verifySignIn(submission.value, requestContext(request));
  } catch (e) {
    return formFailure(submission, e);
  }
  setSignedIn(session, result.token, result.user);
  // A user without has_access is sent to /finish-profile-creation (the wanted page kept for after).
  return redirectWithSession(session, afterSignInPath(result.user.has_access, formData.get('redirectTo')));
}

export default function OtpPage() {
  const { email, redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: 'otp',
    lastResult,
    defaultValue: { email },
    constraint: getZodConstraint(OtpVerifySchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OtpVerifySchema }),
  });
  return (
    <>
      <h1>Check your e-mail</h1>
      <p>
        We sent a 6-digit code to <strong>{email}</strong>. It is valid for 10 minutes.
      </p>
      <Form method="post" {...getFormProps(form)} className="form">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name={fields.email.name} value={email} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <TextField meta={fields.token} label="One-time code" autoComplete="one-time-code" inputMode="numeric" autoFocus />
        <button type="submit" className="button button--primary">
          Sign in
        </button>
      </Form>
      <div className="welcome__links">
        <Link to="/login">Did not get a code? Sign in again to get a new one.</Link>
      </div>
    </>
  );
}

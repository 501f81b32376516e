import { readPageForm } from '~/services/http/request-body.server';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { startSignIn } from '~/services/auth/accounts.server';
import { requestContext } from '~/services/auth/api.server';
import { guard } from '~/services/auth/guard.server';
import { listProviders } from '~/services/auth/oauth-providers.server';
import { safeRedirectPath } from '~/services/auth/redirects';
import { SignInSchema } from '~/services/auth/schemas';
import { formFailure, invalidForm } from '~/services/http/form-reply.server';
import { FormErrors, TextField } from '~/ui/forms/fields';

export const meta: MetaFunction = () => [{ title: 'Sign in · Quarry' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  const url = new URL(request.url);
  return { redirectTo: safeRedirectPath(url.searchParams.get('redirectTo'), ''), socialSignIn: listProviders().length > 0 };
}

export async function action({ request }: ActionFunctionArgs) {
  await guard(request);
  const formData = await readPageForm(request);
  const submission = parseWithZod(formData, { schema: SignInSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  let email: string;
  try {
    ({ email } = await startSignIn(submission.value, requestContext(request)));
  } catch (e) {
    return formFailure(submission, e);
  }
  // The password stays on the server: the code page carries only the e-mail.
  const params = new URLSearchParams({ email });
  const redirectTo = safeRedirectPath(formData.get('redirectTo'), '');
  if (redirectTo) params.set('redirectTo', redirectTo);
  return redirect(`/otp?${params}`);
}

export default function LoginPage() {
  const { redirectTo, socialSignIn } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: 'login',
    lastResult,
    constraint: getZodConstraint(SignInSchema),
    // Checked on submit: an error inserted on blur would push the links below away from a click.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignInSchema }),
  });
  return (
    <>
      <h1>Sign in</h1>
      <Form method="post" {...getFormProps(form)} className="form">
        <FormErrors id={form.errorId} errors={form.errors} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <TextField meta={fields.email} label="E-mail" type="email" autoComplete="email" autoFocus />
        <TextField meta={fields.password} label="Password" type="password" autoComplete="current-password" />
        <button type="submit" className="button button--primary">
          Continue
        </button>
        <p className="field__hint">We will e-mail you a one-time code to finish signing in.</p>
      </Form>
      <div className="welcome__links">
        <Link to="/forgot-password">Forgot your password?</Link>
        <Link to={redirectTo ? `/register?${new URLSearchParams({ redirectTo })}` : '/register'}>Create an account</Link>
        {socialSignIn ? <Link to="/oauth">Sign in with another provider</Link> : null}
        <Link to="/data-browser">Browse as a guest</Link>
      </div>
    </>
  );
}

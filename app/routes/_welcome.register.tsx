import { readPageForm } from '~/services/http/request-body.server';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { signUp } from '~/services/auth/accounts.server';
import { requestContext } from '~/services/auth/api.server';
import { guard } from '~/services/auth/guard.server';
import { afterSignInPath, safeRedirectPath } from '~/services/auth/redirects';
import { SignUpSchema } from '~/services/auth/schemas';
import { redirectWithSession, setSignedIn } from '~/services/auth/session.server';
import { formFailure, invalidForm } from '~/services/http/form-reply.server';
import { FormErrors, TextField } from '~/ui/forms/fields';

export const meta: MetaFunction = () => [{ title: 'Create an account · Quarry' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  return { redirectTo: safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'), '') };
}

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await guard(request);
  const formData = await readPageForm(request);
  const submission = parseWithZod(formData, { schema: SignUpSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  let result: Awaited<ReturnType<typeof signUp>>;
  try {
    result = await signUp(submission.value, requestContext(request));
  } catch (e) {
    return formFailure(submission, e);
  }
  setSignedIn(session, result.token, result.user);
  return redirectWithSession(session, afterSignInPath(result.user.has_access, formData.get('redirectTo')));
}

export default function RegisterPage() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: 'register',
    lastResult,
    constraint: getZodConstraint(SignUpSchema),
    // Checked on submit: an error inserted on blur would push the links below away from a click.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignUpSchema }),
  });
  return (
    <>
      <h1>Create an account</h1>
      <Form method="post" {...getFormProps(form)} className="form">
        <FormErrors id={form.errorId} errors={form.errors} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <TextField meta={fields.email} label="E-mail" type="email" autoComplete="email" autoFocus />
        <TextField meta={fields.full_name} label="Full name" autoComplete="name" />
        <TextField
          meta={fields.password}
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="8 to 128 characters. A long phrase is easiest to remember."
        />
        <TextField meta={fields.password_confirmation} label="Repeat password" type="password" autoComplete="new-password" />
        <button type="submit" className="button button--primary">
          Create account
        </button>
      </Form>
      <div className="welcome__links">
        <Link to={redirectTo ? `/login?${new URLSearchParams({ redirectTo })}` : '/login'}>Already have an account? Sign in</Link>
      </div>
    </>
  );
}

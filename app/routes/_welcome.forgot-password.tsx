import { readPageForm } from '~/services/http/request-body.server';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData } from '@remix-run/react';
import { requestPasswordReset } from '~/services/auth/accounts.server';
import { requestContext } from '~/services/auth/api.server';
import { guard } from '~/services/auth/guard.server';
import { ResetRequestSchema } from '~/services/auth/schemas';
import { redirectWithModal } from '~/services/auth/session.server';
import { formFailure, invalidForm } from '~/services/http/form-reply.server';
import { FormErrors, TextField } from '~/ui/forms/fields';

export const meta: MetaFunction = () => [{ title: 'Forgot password · Quarry' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await guard(request);
  // The schema lowercases the e-mail before it is used.
  const submission = parseWithZod(await readPageForm(request), { schema: ResetRequestSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  try {
    await requestPasswordReset(submission.value, requestContext(request));
  } catch (e) {
    return formFailure(submission, e);
  }
  const email = submission.value.email;
  // The same answer whether or not the account exists.
  return redirectWithModal(session, `/reset-password?${new URLSearchParams({ email })}`, {
    kind: 'info',
    title: 'Check your e-mail',
    content: `If an account exists for ${email}, we sent it a code and a link to choose a new password. The code is valid for 10 minutes.`,
    mode: 'info',
  });
}

export default function ForgotPasswordPage() {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: 'forgot-password',
    lastResult,
    constraint: getZodConstraint(ResetRequestSchema),
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetRequestSchema }),
  });
  return (
    <>
      <h1>Forgot your password?</h1>
      <p>Enter the e-mail of your account. We will send you a code to choose a new password.</p>
      <Form method="post" {...getFormProps(form)} className="form">
        <FormErrors id={form.errorId} errors={form.errors} />
        <TextField meta={fields.email} label="E-mail" type="email" autoComplete="email" autoFocus />
        <button type="submit" className="button button--primary">
          Send code
        </button>
      </Form>
      <div className="welcome__links">
        <Link to="/reset-password">I already have a code</Link>
        <Link to="/login">Back to sign in</Link>
      </div>
    </>
  );
}

import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form } from '@remix-run/react';
import { EmailCodeFormSchema, emailFormSchema } from '~/services/auth/profile-forms';
import { FormErrors, TextField } from '~/ui/forms/fields';
import { formOnlyErrors, type FormResult } from './form-result';

type Pending = { newEmail: string; expiresAt: string };

export function EmailSection(props: {
  hasPassword: boolean;
  pending: Pending | null;
  requestResult?: FormResult;
  codeResult?: FormResult;
}) {
  return (
    <section className="card" aria-labelledby="email-heading">
      <h2 id="email-heading">Change your e-mail address</h2>
      <p>We send a code to the new address; the change is made when you enter it here.</p>
      {props.pending ? <CodeForm pending={props.pending} lastResult={props.codeResult} /> : null}
      <RequestForm hasPassword={props.hasPassword} lastResult={props.requestResult} pending={props.pending !== null} />
    </section>
  );
}

function RequestForm({ hasPassword, lastResult, pending }: { hasPassword: boolean; lastResult?: FormResult; pending: boolean }) {
  const schema = emailFormSchema(hasPassword);
  const [form, fields] = useForm({
    id: 'profile-email',
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="form">
      <FormErrors id={form.errorId} errors={formOnlyErrors(form.errors, [fields.new_email.errors, fields.current_password.errors])} />
      <input type="hidden" name="intent" value="change-email" />
      <TextField meta={fields.new_email} label="New e-mail address" type="email" autoComplete="email" />
      {hasPassword ? (
        <TextField meta={fields.current_password} label="Current password" type="password" autoComplete="current-password" />
      ) : null}
      <div>
        <button type="submit" className={pending ? 'button' : 'button button--primary'}>
          {pending ? 'Send a new code' : 'Send code'}
        </button>
      </div>
    </Form>
  );
}

function CodeForm({ pending, lastResult }: { pending: Pending; lastResult?: FormResult }) {
  const [form, fields] = useForm({
    id: 'profile-email-code',
    lastResult,
    constraint: getZodConstraint(EmailCodeFormSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EmailCodeFormSchema }),
  });
  return (
    <div className="notice profile-pending" data-testid="pending-email-change">
      <p>
        We sent a 6-digit code to <strong>{pending.newEmail}</strong>. It expires at {pending.expiresAt.slice(11, 16)} UTC.
      </p>
      <Form method="post" {...getFormProps(form)} className="form">
        <FormErrors id={form.errorId} errors={formOnlyErrors(form.errors, [fields.token.errors])} />
        <input type="hidden" name="intent" value="confirm-email" />
        <TextField meta={fields.token} label="Code from the e-mail" autoComplete="one-time-code" inputMode="numeric" />
        <div>
          <button type="submit" className="button button--primary">
            Confirm new address
          </button>
        </div>
      </Form>
      <Form method="post" className="profile-secondary-action">
        <input type="hidden" name="intent" value="cancel-email-change" />
        <button type="submit" className="button">
          Cancel the change
        </button>
      </Form>
    </div>
  );
}

import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form } from '@remix-run/react';
import { passwordFormSchema } from '~/services/auth/profile-forms';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '~/services/auth/schemas';
import { FormErrors, TextField } from '~/ui/forms/fields';
import { formOnlyErrors, type FormResult } from './form-result';

export function PasswordSection({ hasPassword, lastResult }: { hasPassword: boolean; lastResult?: FormResult }) {
  const schema = passwordFormSchema(hasPassword);
  const [form, fields] = useForm({
    id: 'profile-password',
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <section className="card" aria-labelledby="password-heading">
      <h2 id="password-heading">{hasPassword ? 'Change your password' : 'Set a password'}</h2>
      <p>
        {hasPassword
          ? 'Every other device where you are signed in is signed out. This one stays signed in.'
          : 'You sign in with a social account. A password lets you sign in with your e-mail address too; every other device is signed out.'}
      </p>
      <Form method="post" {...getFormProps(form)} className="form">
        <FormErrors
          id={form.errorId}
          errors={formOnlyErrors(form.errors, [
            fields.current_password.errors,
            fields.password.errors,
            fields.password_confirmation.errors,
          ])}
        />
        <input type="hidden" name="intent" value="change-password" />
        {hasPassword ? (
          <TextField meta={fields.current_password} label="Current password" type="password" autoComplete="current-password" />
        ) : null}
        <TextField
          meta={fields.password}
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={`${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`}
        />
        <TextField meta={fields.password_confirmation} label="Repeat new password" type="password" autoComplete="new-password" />
        <div>
          <button type="submit" className="button button--primary">
            {hasPassword ? 'Change password' : 'Set password'}
          </button>
        </div>
      </Form>
    </section>
  );
}

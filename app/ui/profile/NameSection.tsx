import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form } from '@remix-run/react';
import { NameFormSchema } from '~/services/auth/profile-forms';
import { FormErrors, TextField } from '~/ui/forms/fields';
import { formOnlyErrors, type FormResult } from './form-result';

export function NameSection({ fullName, lastResult }: { fullName: string; lastResult?: FormResult }) {
  const [form, fields] = useForm({
    id: 'profile-name',
    lastResult,
    defaultValue: { full_name: fullName, intent: 'change-name' },
    constraint: getZodConstraint(NameFormSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NameFormSchema }),
  });
  return (
    <section className="card" aria-labelledby="name-heading">
      <h2 id="name-heading">Change your name</h2>
      <Form method="post" {...getFormProps(form)} className="form">
        <FormErrors id={form.errorId} errors={formOnlyErrors(form.errors, [fields.full_name.errors])} />
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

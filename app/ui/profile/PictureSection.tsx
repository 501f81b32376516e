import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form } from '@remix-run/react';
import { PICTURE_ACCEPT, PICTURE_LIMITS_TEXT, PictureFormSchema } from '~/services/auth/profile-forms';
import { FileField, FormErrors } from '~/ui/forms/fields';
import { formOnlyErrors, type FormResult } from './form-result';

export function PictureSection({ picture, lastResult }: { picture: string | null; lastResult?: FormResult }) {
  const [form, fields] = useForm({
    id: 'profile-picture',
    lastResult,
    constraint: getZodConstraint(PictureFormSchema),
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PictureFormSchema }),
  });
  return (
    <section className="card" aria-labelledby="picture-heading">
      <h2 id="picture-heading">Profile picture</h2>
      {picture ? (
        <img src={picture} alt="Your profile picture" width={96} height={96} className="profile-picture" data-testid="profile-picture" />
      ) : (
        <p className="muted">You have no picture: your initials are shown instead.</p>
      )}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="form">
        <FormErrors id={form.errorId} errors={formOnlyErrors(form.errors, [fields.picture.errors])} />
        <input type="hidden" name="intent" value="upload-picture" />
        <FileField meta={fields.picture} label="Picture file" hint={PICTURE_LIMITS_TEXT} accept={PICTURE_ACCEPT} />
        <div>
          <button type="submit" className="button button--primary">
            Upload picture
          </button>
        </div>
      </Form>
      {picture ? (
        <Form method="post" className="profile-secondary-action">
          <input type="hidden" name="intent" value="remove-picture" />
          <button type="submit" className="button">
            Remove picture
          </button>
        </Form>
      ) : null}
    </section>
  );
}

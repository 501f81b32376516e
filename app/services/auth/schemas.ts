import { z } from 'zod';

// One schema per form, shared by the HTML forms (Conform) and the JSON API. Pure: no I/O.
// Messages are shown to people next to the field, so they say what to do in plain words.

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const FULL_NAME_MAX_LENGTH = 100;
export const PROFILE_PICTURE_MAX_LENGTH = 2048;

// NUL and other control characters are never meaningful in these fields, and PostgreSQL refuses
// NUL in text: rejecting them here keeps hostile input a 4xx instead of a database error.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/u;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

/** Lone UTF-16 surrogates (valid in JSON, not in UTF-8) become U+FFFD the same way on every database. */
function wellFormed(v: string): string {
  return v.replace(LONE_SURROGATE, '\uFFFD');
}

const EmailFormat = z.string().email();

export const EmailSchema = z
  .string({ required_error: 'Enter your e-mail address.', invalid_type_error: 'Enter your e-mail address.' })
  .trim()
  // One message at a time: an empty field is not also "invalid".
  .superRefine((v, ctx) => {
    const message =
      v === ''
        ? 'Enter your e-mail address.'
        : v.length > EMAIL_MAX_LENGTH
          ? `An e-mail address is at most ${EMAIL_MAX_LENGTH} characters long.`
          : !EmailFormat.safeParse(v).success
            ? 'Enter a valid e-mail address, like name@example.com.'
            : undefined;
    if (message) ctx.addIssue({ code: z.ZodIssueCode.custom, message });
  })
  .transform((v) => v.toLowerCase());

export const PasswordSchema = z
  .string({ required_error: 'Enter a password.', invalid_type_error: 'Enter a password.' })
  .min(PASSWORD_MIN_LENGTH, `Your password must be at least ${PASSWORD_MIN_LENGTH} characters long.`)
  .max(PASSWORD_MAX_LENGTH, `Your password must be at most ${PASSWORD_MAX_LENGTH} characters long.`);

/** The password typed at sign-in: any non-empty text (length rules apply when it is chosen, not here). */
const EnteredPasswordSchema = z
  .string({ required_error: 'Enter your password.', invalid_type_error: 'Enter your password.' })
  .min(1, 'Enter your password.')
  .max(1024, 'Incorrect e-mail or password.');

export const FullNameSchema = z
  .string({ required_error: 'Enter your full name.', invalid_type_error: 'Enter your full name.' })
  .trim()
  .min(1, 'Enter your full name.')
  .max(FULL_NAME_MAX_LENGTH, `Your name must be at most ${FULL_NAME_MAX_LENGTH} characters long.`)
  .refine((v) => !CONTROL_CHARACTERS.test(v), 'Your name contains characters that cannot be used.')
  .transform(wellFormed);

export const OtpCodeSchema = z
  .string({ required_error: 'Enter the 6-digit code from the e-mail.', invalid_type_error: 'Enter the 6-digit code from the e-mail.' })
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from the e-mail.');

/** A picture is a web address (http or https) or nothing; an empty field clears it. */
export const ProfilePictureSchema = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  z
    .string({ invalid_type_error: 'Enter the web address of a picture.' })
    .trim()
    .max(PROFILE_PICTURE_MAX_LENGTH, `The picture address must be at most ${PROFILE_PICTURE_MAX_LENGTH} characters long.`)
    .url('Enter the web address of a picture, starting with https://.')
    .refine((v) => /^https?:\/\//i.test(v) && !CONTROL_CHARACTERS.test(v), 'Enter the web address of a picture, starting with https://.')
    .nullable(),
);

export const passwordsMatch = (v: { password: string; password_confirmation: string }, ctx: z.RefinementCtx) => {
  if (v.password !== v.password_confirmation) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['password_confirmation'], message: 'Passwords do not match.' });
  }
};

const ConfirmationSchema = z.string({
  required_error: 'Type your password again.',
  invalid_type_error: 'Type your password again.',
});

export const SignUpSchema = z
  .object({
    email: EmailSchema,
    full_name: FullNameSchema,
    password: PasswordSchema,
    password_confirmation: ConfirmationSchema,
  })
  .superRefine(passwordsMatch);

export const SignInSchema = z.object({ email: EmailSchema, password: EnteredPasswordSchema });

export const OtpVerifySchema = z.object({ token: OtpCodeSchema, email: EmailSchema });

export const ResetRequestSchema = z.object({ email: EmailSchema });

export const ResetConfirmSchema = z
  .object({
    email: EmailSchema,
    token: OtpCodeSchema,
    password: PasswordSchema,
    password_confirmation: ConfirmationSchema,
  })
  .superRefine(passwordsMatch);

export const ProfilePatchSchema = z.object({
  full_name: FullNameSchema.optional(),
  profile_picture: ProfilePictureSchema.optional(),
});

export const FinishProfileSchema = z.object({ full_name: FullNameSchema });

/** The current password typed again on the profile; its length rules were checked when it was chosen. */
export const CurrentPasswordSchema = z
  .string({ required_error: 'Enter your current password.', invalid_type_error: 'Enter your current password.' })
  .min(1, 'Enter your current password.')
  .max(1024, 'Your current password is not correct.');

/**
 * Change of password on the profile. `needsCurrent`: the account has a password (an account made
 * by social sign-in has none and sets its first one without it).
 */
export function passwordChangeFields(needsCurrent: boolean) {
  return z.object({
    current_password: needsCurrent ? CurrentPasswordSchema : CurrentPasswordSchema.optional(),
    password: PasswordSchema,
    password_confirmation: ConfirmationSchema,
  });
}

export function passwordChangeSchema(needsCurrent: boolean) {
  return passwordChangeFields(needsCurrent).superRefine(passwordsMatch);
}

export function emailChangeSchema(needsCurrent: boolean) {
  return z.object({
    new_email: EmailSchema,
    current_password: needsCurrent ? CurrentPasswordSchema : CurrentPasswordSchema.optional(),
  });
}

export const EmailChangeConfirmSchema = z.object({ token: OtpCodeSchema });

export type SignUpInput = z.infer<typeof SignUpSchema>;
export type SignInInput = z.infer<typeof SignInSchema>;
export type OtpVerifyInput = z.infer<typeof OtpVerifySchema>;
export type ResetRequestInput = z.infer<typeof ResetRequestSchema>;
export type ResetConfirmInput = z.infer<typeof ResetConfirmSchema>;
export type PasswordChangeInput = z.infer<ReturnType<typeof passwordChangeSchema>>;
export type EmailChangeInput = z.infer<ReturnType<typeof emailChangeSchema>>;

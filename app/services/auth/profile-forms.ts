import { z } from 'zod';
import { EmailChangeConfirmSchema, emailChangeSchema, FullNameSchema, passwordChangeFields, passwordsMatch } from './schemas';

// The forms of the profile page, one schema each (tagged by `intent`), shared by Conform in the
// browser and parseWithZod in the action. Pure: no I/O.

export const PICTURE_MAX_BYTES = 5 * 1024 * 1024;
export const PICTURE_MAX_SIDE = 4096;
export const PICTURE_OUTPUT_SIDE = 256;
export const PICTURE_ACCEPT = 'image/png,image/jpeg,image/webp';
export const PICTURE_LIMITS_TEXT = `PNG, JPEG or WebP, at most 5 MB and ${PICTURE_MAX_SIDE} × ${PICTURE_MAX_SIDE} pixels. It is cropped to a square of ${PICTURE_OUTPUT_SIDE} × ${PICTURE_OUTPUT_SIDE} pixels.`;

export const PICTURE_MISSING_DETAIL = 'Choose a picture to upload (no file was sent, or the file is empty).';
export const PICTURE_EMPTY_DETAIL = 'The file is empty. Choose a PNG, JPEG or WebP picture.';
export const PICTURE_TOO_LARGE_DETAIL = 'The picture is larger than 5 MB. Choose a smaller file.';
export const PICTURE_NOT_IMAGE_DETAIL = 'This file is not a PNG, JPEG or WebP picture.';
export const PICTURE_DAMAGED_DETAIL = 'The picture could not be read: the file is damaged or incomplete.';
export const PICTURE_NAME_DETAIL = 'The file name cannot be used. Rename the file and try again.';

/** A whole picture form may be this large: the file plus its few small fields. */
export const PICTURE_FORM_MAX_BYTES = PICTURE_MAX_BYTES + 64 * 1024;

export const NameFormSchema = z.object({ intent: z.literal('change-name'), full_name: FullNameSchema });

export const PictureFormSchema = z.object({
  intent: z.literal('upload-picture'),
  picture: z
    .custom<File>((v) => typeof File !== 'undefined' && v instanceof File, PICTURE_MISSING_DETAIL)
    .refine((f) => f.size <= PICTURE_MAX_BYTES, PICTURE_TOO_LARGE_DETAIL),
});

export function passwordFormSchema(needsCurrent: boolean) {
  return passwordChangeFields(needsCurrent)
    .extend({ intent: z.literal('change-password') })
    .superRefine(passwordsMatch);
}

export function emailFormSchema(needsCurrent: boolean) {
  return emailChangeSchema(needsCurrent).extend({ intent: z.literal('change-email') });
}

export const EmailCodeFormSchema = EmailChangeConfirmSchema.extend({ intent: z.literal('confirm-email') });

import { z } from 'zod';

// Input of the billing endpoints, shared by the JSON API and the profile page's form.

const CHOOSE_PLAN = 'Choose one of the plans offered.';

export const VariantIdSchema = z
  .union([z.string(), z.number()], { errorMap: () => ({ message: CHOOSE_PLAN }) })
  .transform((v) => String(v).trim())
  .pipe(z.string().regex(/^\d{1,20}$/, CHOOSE_PLAN));

export const InitCheckoutBody = z.object({ variant_id: VariantIdSchema });

/** Provider ids in URLs: digits only, so nothing odd ever reaches a provider path. */
export const ProviderIdParam = z.string().regex(/^\d{1,20}$/);

import { z } from 'zod';

// Input of the billing endpoints, shared by the JSON API and the profile page's form.

const CHOOSE_PLAN = 'Choose one of the plans offered.';

export const VariantIdSchema = z
  .union([z.string().trim().regex(/^\d{1,20}$/, CHOOSE_PLAN), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)], {
    errorMap: () => ({ message: CHOOSE_PLAN }),
  })
  .transform(String);

export const InitCheckoutBody = z.object({ variant_id: VariantIdSchema });

/** Provider ids in URLs: digits only, so nothing odd ever reaches a provider path. */
export const ProviderIdParam = z.string().regex(/^\d{1,20}$/);

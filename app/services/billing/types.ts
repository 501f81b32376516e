// Billing shapes shared by the API, the profile panel and the services (no I/O here).

export type PlanInterval = 'day' | 'week' | 'month' | 'year';

/** A plan: one configured variant of the provider's store. */
export type Plan = {
  id: string;
  name: string;
  /** Cents, in `currency`. */
  price: number;
  currency: string;
  price_formatted: string;
  /** null for a one-time purchase. */
  interval: PlanInterval | null;
  interval_count: number | null;
  /** "per month", "every 3 months", "one-time". */
  interval_label: string;
};

/** A subscription as the API and the profile page show it (timestamps ISO-8601 UTC). */
export type SubscriptionView = {
  id: string;
  status: string;
  status_label: string;
  variant_id: string;
  plan_name: string | null;
  cancelled: boolean;
  trial_ends_at: string | null;
  renews_at: string | null;
  ends_at: string | null;
  /** Whether this subscription grants access now (see access.ts for the rules). */
  grants_access: boolean;
  created_at: string;
  updated_at: string;
};

/** What the provider says right now, with its customer-facing links (signed, valid for a day). */
export type SubscriptionDetail = SubscriptionView & {
  urls: { customer_portal: string | null; update_payment_method: string | null };
};

/** The subscription panel of /profile; null when billing is off (no panel). */
export type SubscriptionPanelData = {
  subscriptions: SubscriptionView[];
  plans: Plan[];
  /** Why the plans could not be shown (the provider failed); the rest of the panel still works. */
  plansError: string | null;
  /** One of the subscriptions grants access: no Subscribe buttons (a second one would charge twice). */
  subscribed: boolean;
  /** Lemon.js, loaded when a Subscribe button is pressed with JavaScript on. */
  overlayScriptUrl: string;
  /** Back from the provider's checkout (?checkout=done) before its webhook arrived. */
  awaitingConfirmation: boolean;
};

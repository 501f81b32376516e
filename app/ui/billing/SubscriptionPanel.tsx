import { useState, type FormEvent } from 'react';
import type { Plan, SubscriptionPanelData, SubscriptionView } from '~/services/billing/types';
import { apiRequest } from '~/ui/api-client';
import { Timestamp } from '../Timestamp';
import { openCheckout } from './lemon-overlay';

// The subscription panel of /profile. Each plan's Subscribe button is a plain POST form to
// /profile/checkout, which answers with a redirect to the provider's hosted checkout, so it
// works without JavaScript. With JavaScript the same endpoint answers JSON and the checkout
// opens in the provider's overlay on top of this page.

const CHECKOUT_ACTION = '/profile/checkout';

const day = (iso: string) => <Timestamp iso={iso} precision="day" />;

function SubscriptionDates({ s }: { s: SubscriptionView }) {
  if (s.ends_at) return <>{s.grants_access ? <>Access until {day(s.ends_at)}</> : <>Ended {day(s.ends_at)}</>}</>;
  if (s.status === 'on_trial' && s.trial_ends_at) return <>Trial ends {day(s.trial_ends_at)}</>;
  if (s.renews_at && s.grants_access) return <>Renews {day(s.renews_at)}</>;
  return null;
}

function PlanForm({ plan, overlayScriptUrl }: { plan: Plan; overlayScriptUrl: string }) {
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    try {
      // One attempt: the server already applied the retry rule to the provider.
      const { checkout_url } = await apiRequest<{ checkout_url: string }>(
        CHECKOUT_ACTION,
        { method: 'POST', body: JSON.stringify({ variant_id: plan.id }) },
        { attempts: 1 },
      );
      await openCheckout(checkout_url, overlayScriptUrl);
    } catch {
      // apiRequest has opened the error dialog with the server's detail.
    } finally {
      setBusy(false);
    }
  }
  return (
    <form method="post" action={CHECKOUT_ACTION} onSubmit={onSubmit} className="plan">
      <input type="hidden" name="variant_id" value={plan.id} />
      <span className="plan__name">{plan.name}</span>{' '}
      <span className="plan__price">
        {plan.price_formatted} {plan.interval_label}
      </span>{' '}
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
        Subscribe<span className="visually-hidden"> to {plan.name}</span>
      </button>
    </form>
  );
}

export function SubscriptionPanel({ panel }: { panel: SubscriptionPanelData | null }) {
  if (!panel) return null;
  return (
    <section className="card" aria-labelledby="subscription-heading" data-testid="subscription-panel">
      <h2 id="subscription-heading">Subscription</h2>
      {panel.awaitingConfirmation ? (
        <p className="notice" role="status">
          Thank you. Your payment is being confirmed: full access follows as soon as the payment provider tells us, usually within a minute.
          Reload this page to see it.
        </p>
      ) : null}
      {panel.subscriptions.length > 0 ? (
        <ul className="subscriptions">
          {panel.subscriptions.map((s) => (
            <li key={s.id} data-testid="subscription">
              <strong>{s.plan_name ?? 'Subscription'}</strong>: {s.status_label}. <SubscriptionDates s={s} />{' '}
              <a href={`/profile/billing-portal/${s.id}`}>
                Manage subscription<span className="visually-hidden"> {s.plan_name ?? s.id}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p>You have no subscription yet.</p>
      )}
      {panel.subscribed ? null : (
        <>
          <h3>Plans</h3>
          {panel.plansError ? (
            <p className="form-errors" role="alert">
              {panel.plansError}
            </p>
          ) : null}
          <ul className="plans">
            {panel.plans.map((plan) => (
              <li key={plan.id}>
                <PlanForm plan={plan} overlayScriptUrl={panel.overlayScriptUrl} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

import type { PlanInterval } from './types';

// Which subscription states grant access, following Lemon Squeezy's status semantics:
// - on_trial, active: yes.
// - cancelled: the customer stopped future payments but has paid up to ends_at ("grace
//   period"): yes until ends_at, then no (the provider later sends subscription_expired).
// - past_due: a renewal payment failed and the provider retries it (4 times over 2 weeks);
//   renews_at is the next attempt. Yes until renews_at: a successful retry makes it active again,
//   a failed one moves renews_at on (subscription_updated) or ends in unpaid.
// - paused: payment collection is paused. Mode "free" means the service goes on for free: yes;
//   mode "void" means the service is paused too: no.
// - unpaid, expired, and any status this code does not know: no.
// The clock is an argument so tests can step past ends_at without sleeping.

export type AccessFacts = {
  status: string;
  ends_at: string | null;
  renews_at: string | null;
  pause_mode: string | null;
};

const before = (now: Date, iso: string | null) => iso !== null && now.getTime() < Date.parse(iso);

export function grantsAccess(s: AccessFacts, now: Date): boolean {
  switch (s.status) {
    case 'on_trial':
    case 'active':
      return true;
    case 'cancelled':
      return before(now, s.ends_at);
    case 'past_due':
      return before(now, s.renews_at);
    case 'paused':
      return s.pause_mode === 'free';
    default:
      return false;
  }
}

const STATUS_LABELS: Record<string, string> = {
  on_trial: 'On trial',
  active: 'Active',
  paused: 'Paused',
  past_due: 'Past due',
  unpaid: 'Unpaid',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase());
}

export function formatPrice(cents: number, currency: string): string {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);
}

export function intervalLabel(interval: PlanInterval | null, count: number | null): string {
  if (!interval) return 'one-time';
  const n = count ?? 1;
  return n === 1 ? `per ${interval}` : `every ${n} ${interval}s`;
}

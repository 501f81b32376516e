import { describe, expect, it } from 'vitest';
import { formatPrice, grantsAccess, intervalLabel, statusLabel, type AccessFacts } from './access';

const now = new Date('2025-03-10T12:00:00.000Z');
const facts = (over: Partial<AccessFacts>): AccessFacts => ({
  status: 'active',
  ends_at: null,
  renews_at: null,
  pause_mode: null,
  ...over,
});

describe('which subscription states grant access', () => {
  it('active and on_trial do', () => {
    expect(grantsAccess(facts({ status: 'active' }), now)).toBe(true);
    expect(grantsAccess(facts({ status: 'on_trial' }), now)).toBe(true);
  });

  it('cancelled does until ends_at, and not from ends_at on', () => {
    const s = facts({ status: 'cancelled', ends_at: '2025-03-20T00:00:00.000Z' });
    expect(grantsAccess(s, now)).toBe(true);
    expect(grantsAccess(s, new Date('2025-03-19T23:59:59.999Z'))).toBe(true);
    expect(grantsAccess(s, new Date('2025-03-20T00:00:00.000Z'))).toBe(false);
    expect(grantsAccess(facts({ status: 'cancelled', ends_at: null }), now)).toBe(false);
  });

  it('past_due does until the next payment attempt (renews_at)', () => {
    expect(grantsAccess(facts({ status: 'past_due', renews_at: '2025-03-11T00:00:00.000Z' }), now)).toBe(true);
    expect(grantsAccess(facts({ status: 'past_due', renews_at: '2025-03-09T00:00:00.000Z' }), now)).toBe(false);
  });

  it('paused does only in "free" mode', () => {
    expect(grantsAccess(facts({ status: 'paused', pause_mode: 'free' }), now)).toBe(true);
    expect(grantsAccess(facts({ status: 'paused', pause_mode: 'void' }), now)).toBe(false);
  });

  it('unpaid, expired and unknown statuses do not', () => {
    for (const status of ['unpaid', 'expired', 'refunded', ''])
      expect(grantsAccess(facts({ status, ends_at: '2030-01-01T00:00:00.000Z' }), now)).toBe(false);
  });
});

describe('labels', () => {
  it('names statuses, prices and intervals', () => {
    expect(statusLabel('past_due')).toBe('Past due');
    expect(statusLabel('on_trial')).toBe('On trial');
    expect(statusLabel('something_new')).toBe('Something new');
    expect(formatPrice(900, 'USD')).toBe('$9.00');
    expect(formatPrice(12_345, 'EUR')).toBe('€123.45');
    expect(intervalLabel('month', 1)).toBe('per month');
    expect(intervalLabel('month', 3)).toBe('every 3 months');
    expect(intervalLabel(null, null)).toBe('one-time');
  });
});

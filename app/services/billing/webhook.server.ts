import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { getDb } from '../db/db.server';
import { readBodyBytes } from '../http/api.server';
import { badRequest, unauthorized } from '../http/errors';
import { requireBilling } from './billing-config.server';
import { applySnapshot, type SnapshotOutcome } from './subscriptions.server';
import { SubscriptionResource, WebhookEnvelope } from './wire';

// Lemon Squeezy webhooks. The provider signs the raw body: X-Signature is the hex HMAC-SHA256 of
// the exact bytes with the webhook's signing secret, so the bytes are checked before anything
// is parsed. It sends no event id, and it re-sends the same body when a delivery fails, so the
// de-duplication key is the SHA-256 of the raw body; the key is written in the transaction that
// applies the event. Each subscription event carries the whole subscription: applying it is
// "store this snapshot unless a newer one is stored", whichever event name brought it.

export const WEBHOOK_MAX_BYTES = 256 * 1024;
export const BAD_SIGNATURE_DETAIL = 'Invalid webhook signature.';

/** Events whose data is a subscription object. Anything else is acknowledged and ignored. */
export const SUBSCRIPTION_EVENTS: ReadonlySet<string> = new Set([
  'subscription_created',
  'subscription_updated',
  'subscription_cancelled',
  'subscription_resumed',
  'subscription_expired',
  'subscription_paused',
  'subscription_unpaused',
  'subscription_plan_changed',
]);

export type WebhookOutcome = SnapshotOutcome | 'ignored' | 'duplicate';

export function signatureMatches(rawBody: Buffer, header: string | null, secret: string): boolean {
  const given = header?.trim().toLowerCase() ?? '';
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

function firstIssue(error: { issues: { path: (string | number)[]; message: string }[] }): string {
  const issue = error.issues[0];
  return `${issue.path.join('.') || 'body'}: ${issue.message}`;
}

/** Verifies, de-duplicates and applies one delivery. Throws 401 (signature) or 400 (body). */
export async function receiveWebhook(request: Request, now = new Date()): Promise<WebhookOutcome> {
  const billing = requireBilling();
  const raw = await readBodyBytes(request, WEBHOOK_MAX_BYTES);
  if (!signatureMatches(raw, request.headers.get('X-Signature'), billing.webhookSecret)) throw unauthorized(BAD_SIGNATURE_DETAIL);

  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('The webhook body is not valid JSON.');
  }
  const envelope = WebhookEnvelope.safeParse(json);
  if (!envelope.success) throw badRequest(`The webhook body is not a Lemon Squeezy event (${firstIssue(envelope.error)}).`);
  const eventName = envelope.data.meta.event_name;
  const headerName = request.headers.get('X-Event-Name');
  if (headerName !== null && headerName.trim() !== eventName) throw badRequest('X-Event-Name does not match meta.event_name.');

  let subscription: SubscriptionResource | null = null;
  if (SUBSCRIPTION_EVENTS.has(eventName)) {
    const parsed = SubscriptionResource.safeParse(envelope.data.data);
    if (!parsed.success) throw badRequest(`The ${eventName} event does not carry a subscription (data.${firstIssue(parsed.error)}).`);
    subscription = parsed.data;
  }

  const key = createHash('sha256').update(raw).digest('hex');
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    // Claim the key first: a concurrent delivery of the same body waits here for this
    // transaction and then finds the key taken.
    const claimed = await trx
      .insertInto('billing_webhook_events')
      .values({
        dedupe_key: key,
        event_name: eventName,
        outcome: 'pending',
        subscription_id: subscription?.id ?? null,
        received_at: now.toISOString(),
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return 'duplicate';
    const outcome: WebhookOutcome = subscription
      ? await applySnapshot(trx, billing, subscription, { customUserId: envelope.data.meta.custom_data?.user_id, now })
      : 'ignored';
    await trx.updateTable('billing_webhook_events').set({ outcome }).where('dedupe_key', '=', key).execute();
    return outcome;
  });
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  NotificationRefused,
  type ProcessorDisputeOfNotice,
  type ProcessorNotice,
  type ProcessorNotification,
} from '../processor.ts';
import type { StripeApi } from './stripe-api.ts';
import { referenceOf, type StripePaymentIntent, type StripeRefund } from './stripe-objects.ts';

/** How far the signed time may lie from now: Stripe's libraries' default. */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;

interface StripeEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

interface StripeDispute {
  id: string;
  amount: number;
  currency: string;
  reason: string;
  status: string;
  payment_intent: string | null;
}

/** Stripe's dispute reasons that the spec names too; any other is GENERAL. */
const SPEC_REASONS = new Set([
  'fraudulent',
  'unrecognized',
  'duplicate',
  'subscription_canceled',
  'product_not_received',
  'product_unacceptable',
  'credit_not_processed',
  'general',
]);

const REFUND_EVENTS = new Set(['charge.refunded', 'refund.created', 'refund.updated', 'charge.refund.updated']);

/**
 * A Stripe webhook notification, verified as Stripe documents it: `Stripe-Signature` is
 * `t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with the endpoint's signing
 * secret (`whsec_…`); a request is taken when one `v1` matches and `t` lies within
 * `STRIPE_SIGNATURE_TOLERANCE_SECONDS` of now (an older one is a replay). Refund events report the
 * payment intent's refunds as Stripe lists them now; `charge.dispute.created` and
 * `charge.dispute.closed` (won or lost) its dispute. The payment intent is read for this service's
 * reference in its metadata. Any other event is null.
 */
export async function stripeNotice(
  api: StripeApi,
  notification: ProcessorNotification,
  webhookSecret: string | null,
  now: Date,
): Promise<ProcessorNotice | null> {
  if (!webhookSecret)
    throw new NotificationRefused(
      'No signing secret is configured for this processor: notifications cannot be verified',
    );
  verifySignature(notification, webhookSecret, now);
  let event: StripeEvent;
  try {
    event = JSON.parse(notification.body.toString('utf8')) as StripeEvent;
  } catch {
    throw new NotificationRefused('The notification is not a JSON event');
  }
  const object = event.data?.object;
  if (typeof event.type !== 'string' || typeof object !== 'object' || object === null)
    throw new NotificationRefused('The notification is not a Stripe event');

  if (REFUND_EVENTS.has(event.type)) {
    const intentId = typeof object.payment_intent === 'string' ? object.payment_intent : null;
    if (!intentId) return null;
    const intent = await api.get<StripePaymentIntent>(`/v1/payment_intents/${encodeURIComponent(intentId)}`);
    const refunds: StripeRefund[] = [];
    for await (const refund of api.list<StripeRefund>('/v1/refunds', { payment_intent: intentId }))
      refunds.push(refund);
    return {
      kind: 'refunds',
      charge: { processorId: intentId, reference: referenceOf(intent) },
      refunds: refunds.map((refund) => ({
        processorRefundId: refund.id,
        reference: referenceOf(refund),
        amount: refund.amount,
        currency: refund.currency.toUpperCase(),
        status: refund.status === 'succeeded' ? 'successful' : refund.status === 'pending' ? 'pending' : 'failed',
      })),
    };
  }
  if (event.type === 'charge.dispute.created' || event.type === 'charge.dispute.closed') {
    const dispute = object as unknown as StripeDispute;
    const stage = disputeStage(event.type, dispute.status);
    if (!stage || !dispute.payment_intent) return null;
    const intent = await api.get<StripePaymentIntent>(
      `/v1/payment_intents/${encodeURIComponent(dispute.payment_intent)}`,
    );
    return {
      kind: 'dispute',
      charge: { processorId: dispute.payment_intent, reference: referenceOf(intent) },
      dispute: {
        processorDisputeId: dispute.id,
        amount: dispute.amount,
        currency: dispute.currency.toUpperCase(),
        reason: SPEC_REASONS.has(dispute.reason) ? dispute.reason.toUpperCase() : 'GENERAL',
        stage,
      },
    };
  }
  return null;
}

/** Opened as an inquiry (Stripe's "warning") or a chargeback; closed won or lost (a closed inquiry is neither). */
function disputeStage(type: string, status: string): ProcessorDisputeOfNotice['stage'] | null {
  if (type === 'charge.dispute.created') return status.startsWith('warning') ? 'retrieval_request' : 'chargeback';
  if (status === 'won' || status === 'lost') return status;
  return null;
}

function verifySignature(notification: ProcessorNotification, secret: string, now: Date): void {
  const header = notification.headers['stripe-signature'];
  if (!header) throw new NotificationRefused('The notification carries no Stripe-Signature');
  let timestamp: number | null = null;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (name === 'v1' && value && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === null || signatures.length === 0)
    throw new NotificationRefused('The Stripe-Signature has no timestamp or no v1 signature');
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(notification.body).digest();
  if (!signatures.some((signature) => timingSafeEqual(signature, expected)))
    throw new NotificationRefused('The Stripe-Signature does not match the body');
  if (Math.abs(now.getTime() / 1000 - timestamp) > STRIPE_SIGNATURE_TOLERANCE_SECONDS)
    throw new NotificationRefused(
      'The Stripe-Signature is outside the tolerance window (a replay or a stale notification)',
    );
}

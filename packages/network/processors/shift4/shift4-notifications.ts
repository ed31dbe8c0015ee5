import {
  NotificationRefused,
  type ProcessorChargeOfNotice,
  type ProcessorDisputeOfNotice,
  type ProcessorNotice,
  type ProcessorNotification,
} from '../processor.ts';
import type { Shift4Client } from './shift4-client.ts';

/** The parts of a Shift4 event (and of the charge and dispute it carries) that notices are made of. */
interface Shift4Event {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

interface Shift4NoticeCharge {
  id: string;
  metadata?: Record<string, string>;
  refunds?: {
    id: string;
    amount: number;
    currency: string;
    status: 'successful' | 'pending' | 'failed';
    metadata?: Record<string, string>;
  }[];
  dispute?: Shift4NoticeDispute | null;
}

interface Shift4NoticeDispute {
  id: string;
  amount: number;
  currency: string;
  status: string;
  reason: string;
  charge?: Shift4NoticeCharge | string;
}

const EVENT_ID = /^[A-Za-z0-9_]{1,100}$/;

/** The dispute event types and what each says happened. */
const DISPUTE_STAGES: Record<string, ProcessorDisputeOfNotice['stage'] | 'opened'> = {
  CHARGE_DISPUTE_CREATED: 'opened',
  CHARGE_DISPUTE_WON: 'won',
  CHARGE_DISPUTE_LOST: 'lost',
};

/**
 * A Shift4 webhook notification, verified as Shift4 documents it: the notification is not signed,
 * so only its event id is read, and the event is fetched back by that id with the account's secret
 * key (`GET /events/{id}`); what the processor answers is the event trusted, never the body that
 * came in. An id the processor does not know for this key (forged, another account's) is refused.
 * `CHARGE_REFUNDED` reports the charge's refunds; `CHARGE_DISPUTE_CREATED`, `…_WON` and `…_LOST`
 * its dispute (the event's data is the charge with its `dispute`, or the dispute with its
 * `charge`); any other event is null.
 */
export async function shift4Notice(
  client: Shift4Client,
  notification: ProcessorNotification,
): Promise<ProcessorNotice | null> {
  const eventId = announcedEventId(notification.body);
  const answer = await client.get<Shift4Event>(`/events/${encodeURIComponent(eventId)}`);
  if (answer.status === 404 || answer.status === 400)
    throw new NotificationRefused(`The processor knows no event ${eventId} for this account`);
  if (answer.status !== 200 || answer.body.id !== eventId || typeof answer.body.type !== 'string')
    throw new NotificationRefused(`The processor answered ${answer.status} for event ${eventId}`);
  const event = answer.body;
  if (event.type === 'CHARGE_REFUNDED') {
    const charge = event.data as unknown as Shift4NoticeCharge;
    return {
      kind: 'refunds',
      charge: chargeOfNotice(charge),
      refunds: (charge.refunds ?? []).map((refund) => ({
        processorRefundId: refund.id,
        reference: refund.metadata?.reference ?? null,
        amount: refund.amount,
        currency: refund.currency,
        status: refund.status,
      })),
    };
  }
  const stage = DISPUTE_STAGES[event.type];
  if (!stage) return null;
  const { charge, dispute } = disputeAndCharge(event.data);
  if (!dispute) return null;
  return {
    kind: 'dispute',
    charge: chargeOfNotice(charge),
    dispute: {
      processorDisputeId: dispute.id,
      amount: dispute.amount,
      currency: dispute.currency,
      reason: dispute.reason,
      stage:
        stage === 'opened'
          ? dispute.status.startsWith('RETRIEVAL_REQUEST')
            ? 'retrieval_request'
            : 'chargeback'
          : stage,
    },
  };
}

/** The event id the notification names: the only part of its body that is read. */
function announcedEventId(body: Buffer): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new NotificationRefused('The notification is not a JSON event');
  }
  const id = (parsed as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || !EVENT_ID.test(id)) throw new NotificationRefused('The notification names no event id');
  return id;
}

function disputeAndCharge(data: Record<string, unknown>): {
  charge: Shift4NoticeCharge;
  dispute: Shift4NoticeDispute | null;
} {
  if (data.objectType === 'dispute') {
    const dispute = data as unknown as Shift4NoticeDispute;
    const charge = typeof dispute.charge === 'object' ? dispute.charge : { id: String(dispute.charge) };
    return { charge, dispute };
  }
  const charge = data as unknown as Shift4NoticeCharge;
  return { charge, dispute: charge.dispute ?? null };
}

function chargeOfNotice(charge: Shift4NoticeCharge): ProcessorChargeOfNotice {
  return { processorId: String(charge.id), reference: charge.metadata?.reference ?? null };
}

import type { ChargeEvent } from '../../packages/domain/charge/charge-events.ts';
import { chargeEventTypes } from '../../packages/domain/charge/charge-events.ts';
import { disputeEventTypes } from '../../packages/domain/charge/dispute-events.ts';
import { fraudWarningEventTypes } from '../../packages/domain/charge/fraud-warning-events.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import { cardObject } from './card-object.ts';
import { disputeView, embeddedDispute, type DisputeDoc } from './dispute-view.ts';
import type { ObjectView } from './object-view.ts';
import { refundView, type RefundDoc } from './refund-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

export interface ChargeDoc extends Document {
  objectType: 'charge';
  amount: number;
  currency: string;
  customerId: string | null;
  captured: boolean;
  refunded: boolean;
  refunds: Record<string, unknown>[];
  card: Record<string, unknown>;
  _accountId: string;
  _mode: Mode;
  /** Refunds with their internal fields, for `refunds` and `refunded`. */
  _refunds: RefundDoc[];
  /** The dispute with its internal fields, once one opened. */
  _dispute?: DisputeDoc;
}

function withRefunds(charge: ChargeDoc, refunds: RefundDoc[]): ChargeDoc {
  const refundedAmount = refunds
    .filter((refund) => refund.status === 'successful')
    .reduce((sum, refund) => sum + refund.amount, 0);
  return {
    ...charge,
    _refunds: refunds,
    refunds: refunds.map(({ _accountId: _a, _mode: _m, _seq: _s, ...refund }) => refund),
    refunded: refundedAmount >= charge.amount,
  };
}

/** A charge as GET /charges/{id} renders it, with its refunds. */
export const chargeView: ObjectView<ChargeDoc> = {
  eventTypes: new Set([...chargeEventTypes, ...disputeEventTypes, ...fraudWarningEventTypes]),
  objectId: (event) => (event.data as { chargeId?: string }).chargeId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & ChargeEvent;
    if (event.type === 'ChargeSucceeded' || event.type === 'ChargeFailed') {
      const data = event.data;
      const created = occurredAtSeconds(recorded);
      const failed = event.type === 'ChargeFailed' ? event.data : null;
      return {
        id: data.chargeId,
        created,
        objectType: 'charge',
        amount: data.amount,
        currency: data.currency,
        ...(data.type ? { type: data.type } : {}),
        description: data.description,
        card: cardObject({
          id: data.cardId,
          created,
          customerId: data.customerId,
          card: data.card,
          merchantAccountId: data.merchantAccountId,
          tenant: recorded.metadata,
        }),
        status: failed ? 'failed' : 'successful',
        customerId: data.customerId,
        subscriptionId: data.subscriptionId,
        captured: failed ? false : data.captured,
        refunded: false,
        refunds: [],
        disputed: false,
        fraudDetails: data.fraudDetails,
        shipping: data.shipping,
        billing: data.billing,
        threeDSecureInfo: data.threeDSecureInfo,
        avsCheck: data.avsCheck,
        merchantAccountId: data.merchantAccountId,
        metadata: data.metadata,
        ...(failed
          ? {
              failureCode: failed.failureCode,
              failureMessage: failed.failureMessage,
              failureIssuerDeclineCode: failed.failureIssuerDeclineCode,
            }
          : {}),
        ...tenantFields(recorded),
        _refunds: [],
      };
    }
    if (!current) return current;
    switch (event.type) {
      case 'ChargeCaptured':
        return { ...current, captured: true };
      case 'ChargeUpdated': {
        const { chargeId: _id, ...changes } = event.data;
        const card =
          changes.customerId !== undefined ? { ...current.card, customerId: changes.customerId } : current.card;
        return { ...current, ...changes, card };
      }
      case 'RefundRequested':
        return withRefunds(current, [...current._refunds, refundView.fold(null, recorded)!]);
      case 'RefundSettled':
      case 'RefundUpdated':
        return withRefunds(
          current,
          current._refunds.map((refund) =>
            refund.id === event.data.refundId ? refundView.fold(refund, recorded)! : refund,
          ),
        );
      case 'DisputeOpened':
      case 'DisputeEvidenceSubmitted':
      case 'DisputeWon':
      case 'DisputeLost': {
        const dispute = disputeView.fold(current._dispute ?? null, recorded);
        return dispute ? { ...current, disputed: true, dispute: embeddedDispute(dispute), _dispute: dispute } : current;
      }
      case 'FraudWarningReceived':
        return { ...current, fraudDetails: event.data.fraudDetails };
      default:
        return current;
    }
  },
};

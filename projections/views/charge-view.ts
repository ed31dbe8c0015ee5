import type { ChargeEvent } from '../../packages/domain/charge/charge-events.ts';
import { chargeEventTypes } from '../../packages/domain/charge/charge-events.ts';
import { disputeEventTypes } from '../../packages/domain/charge/dispute-events.ts';
import { fraudWarningEventTypes } from '../../packages/domain/charge/fraud-warning-events.ts';
import {
  paymentMethodChargeEventTypes,
  type PaymentMethodChargeEvent,
} from '../../packages/domain/charge/payment-method-charge.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import { cardObject } from './card-object.ts';
import { disputeView, embeddedDispute, type DisputeDoc } from './dispute-view.ts';
import type { ObjectView } from './object-view.ts';
import { paymentMethodObject } from './payment-method-view.ts';
import { refundView, type RefundDoc } from './refund-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

export interface ChargeDoc extends Document {
  objectType: 'charge';
  amount: number;
  currency: string;
  customerId: string | null;
  captured: boolean;
  refunded: boolean;
  /** Sum of the successful refunds. */
  amountRefunded: number;
  refunds: Record<string, unknown>[];
  /** Card charges only; a payment-method charge has `paymentMethod`, `clientObjectId` and `flow`. */
  card?: Record<string, unknown>;
  flow?: { nextAction: string; returnUrl: string; redirect?: { redirectUrl: string } };
  _accountId: string;
  _mode: Mode;
  /** Refunds with their internal fields, for `refunds` and `refunded`. */
  _refunds: RefundDoc[];
  /** The dispute with its internal fields, once one opened. */
  _dispute?: DisputeDoc;
  /** A pending payment-method charge: whether it is captured once authorized. */
  _captureWhenAuthorized?: boolean;
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
    amountRefunded: refundedAmount,
  };
}

/** A charge as GET /charges/{id} renders it, with its refunds. */
export const chargeView: ObjectView<ChargeDoc> = {
  eventTypes: new Set([
    ...chargeEventTypes,
    ...paymentMethodChargeEventTypes,
    ...disputeEventTypes,
    ...fraudWarningEventTypes,
  ]),
  objectId: (event) => (event.data as { chargeId?: string }).chargeId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & (ChargeEvent | PaymentMethodChargeEvent);
    if (event.type === 'ChargePending') return pendingCharge(recorded, event.data);
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
        }),
        status: failed ? 'failed' : 'successful',
        customerId: data.customerId,
        subscriptionId: data.subscriptionId,
        captured: failed ? false : data.captured,
        refunded: false,
        amountRefunded: 0,
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
      case 'PaymentMethodChargeProcessing':
        return { ...current, flow: { nextAction: 'wait', returnUrl: current.flow!.returnUrl } };
      case 'PaymentMethodChargeAuthorized': {
        const { _captureWhenAuthorized: captured = true, ...charge } = current;
        return {
          ...charge,
          status: 'successful',
          captured,
          flow: { nextAction: 'none', returnUrl: charge.flow!.returnUrl },
        };
      }
      case 'PaymentMethodChargeFailed': {
        const { _captureWhenAuthorized: _captured, ...charge } = current;
        return {
          ...charge,
          status: 'failed',
          flow: { nextAction: 'none', returnUrl: charge.flow!.returnUrl },
          failureCode: event.data.failureCode,
          failureMessage: event.data.failureMessage,
          failureIssuerDeclineCode: event.data.failureIssuerDeclineCode,
        };
      }
      case 'ChargeUpdated': {
        const { chargeId: _id, ...changes } = event.data;
        if (changes.customerId === undefined || !current.card) return { ...current, ...changes };
        return { ...current, ...changes, card: { ...current.card, customerId: changes.customerId } };
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

/** A payment-method charge waiting for the payer: `flow` says where to send them. */
function pendingCharge(
  recorded: RecordedEvent,
  data: Extract<PaymentMethodChargeEvent, { type: 'ChargePending' }>['data'],
): ChargeDoc {
  const created = occurredAtSeconds(recorded);
  return {
    id: data.chargeId,
    created,
    objectType: 'charge',
    amount: data.amount,
    currency: data.currency,
    ...(data.type ? { type: data.type } : {}),
    description: data.description,
    status: 'pending',
    clientObjectId: data.clientObjectId,
    paymentMethod: paymentMethodObject(data.paymentMethod),
    flow: { nextAction: 'redirect', returnUrl: data.returnUrl, redirect: { redirectUrl: data.redirectUrl } },
    customerId: data.customerId,
    subscriptionId: data.subscriptionId,
    captured: false,
    refunded: false,
    amountRefunded: 0,
    refunds: [],
    disputed: false,
    fraudDetails: data.fraudDetails,
    shipping: data.shipping,
    billing: null,
    threeDSecureInfo: null,
    avsCheck: null,
    merchantAccountId: data.merchantAccountId,
    metadata: data.metadata,
    ...tenantFields(recorded),
    _refunds: [],
    _captureWhenAuthorized: data.captured,
  };
}

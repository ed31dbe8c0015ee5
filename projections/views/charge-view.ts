import type {
  CardChargePending,
  ChargeAttempt,
  ChargeEvent,
  ChargeFailed,
  ChargeFailure,
  ChargeSucceeded,
  ChargeType,
  CrossSaleChargeReference,
  CrossSaleOrigin,
} from '../../packages/domain/charge/charge-events.ts';
import type { DisputeEvent } from '../../packages/domain/charge/dispute-events.ts';
import type { NetworkOutcomesExpected } from '../../packages/domain/charge/network-outcome-events.ts';
import type {
  ChargePending,
  NextAction,
  PaymentMethodChargeEvent,
} from '../../packages/domain/charge/payment-method-charge.ts';
import type { Metadata } from '../../packages/domain/metadata.ts';
import type { ProjectedEvent } from '../../packages/projection-runtime/projection.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { cardObject, type CardObject } from './card-object.ts';
import { disputeView, embeddedDispute, type ChargeDisputeObject, type DisputeDoc } from './dispute-view.ts';
import { objectView, publicObject, type PublicObject, fromEventAlone } from './object-view.ts';
import { paymentMethodObject, type PaymentMethodObject } from './payment-method-view.ts';
import { refundView, type RefundDoc, type RefundEvent } from './refund-view.ts';

/** Every event of a charge's stream changes the charge object, except the announcement of network outcomes. */
export type ChargeViewEvent = Exclude<ChargeEvent, NetworkOutcomesExpected> | PaymentMethodChargeEvent;

/** What a payment-method charge's payer page does next (spec: `flow`). */
export interface ChargeFlow {
  nextAction: NextAction;
  returnUrl: string;
  /** Present while `nextAction` is `redirect`. */
  redirect?: { redirectUrl: string };
}

/** A charge as GET /charges/{id} renders it (spec: Charge). */
export interface ChargeObject {
  id: string;
  created: number;
  objectType: 'charge';
  amount: number;
  currency: string;
  /** Present only when the request gave one. */
  type?: ChargeType;
  description: string | null;
  /** Card charges only. */
  card?: CardObject;
  status: 'successful' | 'pending' | 'failed';
  /** Payment-method charges only: `client_char_…`, `paymentMethod` and `flow`. */
  clientObjectId?: string;
  paymentMethod?: PaymentMethodObject;
  flow?: ChargeFlow;
  customerId: string | null;
  subscriptionId: string | null;
  captured: boolean;
  /** True once successful refunds add up to the whole amount (spec). */
  refunded: boolean;
  /** Sum of the successful refunds. */
  amountRefunded: number;
  refunds: PublicObject<RefundDoc>[];
  disputed: boolean;
  /** Present once a dispute opened. */
  dispute?: ChargeDisputeObject;
  fraudDetails: ChargeAttempt['fraudDetails'];
  shipping: ChargeAttempt['shipping'];
  billing: ChargeAttempt['billing'];
  threeDSecureInfo: ChargeAttempt['threeDSecureInfo'];
  avsCheck: ChargeAttempt['avsCheck'];
  merchantAccountId: string | null;
  metadata: Metadata;
  /** Charges made by buying a cross-sale offer only: the offer and the merchant that sold it. */
  crossSale?: CrossSaleOrigin;
  /** Main charges of a checkout after which cross-sale offers were bought: the charges made for them. */
  crossSaleCharges?: CrossSaleChargeReference[];
  /** Failed charges only. */
  failureCode?: ChargeFailure['failureCode'];
  failureMessage?: string;
  failureIssuerDeclineCode?: string | null;
}

export interface ChargeDoc extends ChargeObject, TenantScope {
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
    refunds: refunds.map(publicObject),
    refunded: refundedAmount >= charge.amount,
    amountRefunded: refundedAmount,
  };
}

/** The charge made by a payment attempt, successful or failed. */
function attempted(
  event: ProjectedEvent<ChargeSucceeded | ChargeFailed | CardChargePending>,
  failure: ChargeFailure | null,
): ChargeDoc {
  const { data } = event;
  const created = occurredAtSeconds(event);
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
      tenant: event.metadata,
    }),
    status: failure ? 'failed' : 'successful',
    customerId: data.customerId,
    subscriptionId: data.subscriptionId,
    captured: failure ? false : data.captured,
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
    ...(data.crossSale ? { crossSale: data.crossSale } : {}),
    ...(failure
      ? {
          failureCode: failure.failureCode,
          failureMessage: failure.failureMessage,
          failureIssuerDeclineCode: failure.failureIssuerDeclineCode,
        }
      : {}),
    ...tenantFields(event),
    _refunds: [],
  };
}

/** A charge as GET /charges/{id} renders it, with its refunds and its dispute. */
export const chargeView = objectView<ChargeDoc, ChargeViewEvent>({
  objectId: (event) => event.data.chargeId,
  on: {
    ChargeSucceeded: fromEventAlone((event) => attempted(event, null)),
    ChargeFailed: fromEventAlone((event) => attempted(event, event.data)),
    CardChargePending: fromEventAlone((event) => ({
      ...attempted(event, null),
      status: 'pending',
      captured: false,
      _captureWhenAuthorized: event.data.captured,
    })),
    CardChargeSettled: (current, event) => {
      if (!current) return current;
      const { failure } = event.data;
      const { _captureWhenAuthorized: captured = true, ...charge } = current;
      if (!failure) return { ...charge, status: 'successful', captured };
      return {
        ...charge,
        status: 'failed',
        captured: false,
        failureCode: failure.failureCode,
        failureMessage: failure.failureMessage,
        failureIssuerDeclineCode: failure.failureIssuerDeclineCode,
      };
    },
    ChargeCaptured: (current) => current && { ...current, captured: true },
    ChargeUpdated: (current, event) => {
      if (!current) return current;
      const { chargeId: _id, ...changes } = event.data;
      if (changes.customerId === undefined || !current.card) return { ...current, ...changes };
      return { ...current, ...changes, card: { ...current.card, customerId: changes.customerId } };
    },
    ChargePending: fromEventAlone((event) => pendingCharge(event)),
    PaymentMethodChargeProcessing: (current) => current && withNextAction(current, 'wait'),
    PaymentMethodChargeAuthorized: (current) => {
      if (!current) return current;
      const { _captureWhenAuthorized: captured = true, ...charge } = withNextAction(current, 'none');
      return { ...charge, status: 'successful', captured };
    },
    PaymentMethodChargeFailed: (current, event) => {
      if (!current) return current;
      const { _captureWhenAuthorized: _captured, ...charge } = withNextAction(current, 'none');
      return {
        ...charge,
        status: 'failed',
        failureCode: event.data.failureCode,
        failureMessage: event.data.failureMessage,
        failureIssuerDeclineCode: event.data.failureIssuerDeclineCode,
      };
    },
    RefundRequested: (current, event) => {
      const refund = refundView.fold(null, event);
      return current && refund && withRefunds(current, [...current._refunds, refund]);
    },
    RefundSettled: (current, event) => current && refundChanged(current, event),
    RefundUpdated: (current, event) => current && refundChanged(current, event),
    DisputeOpened: disputeChanged,
    DisputeEvidenceSubmitted: disputeChanged,
    DisputeWon: disputeChanged,
    DisputeLost: disputeChanged,
    FraudWarningReceived: (current, event) => current && { ...current, fraudDetails: event.data.fraudDetails },
    CrossSaleChargeAdded: (current, event) =>
      current && { ...current, crossSaleCharges: [...(current.crossSaleCharges ?? []), event.data.crossSaleCharge] },
  },
});

function refundChanged(charge: ChargeDoc, event: ProjectedEvent<RefundEvent>): ChargeDoc {
  return withRefunds(
    charge,
    charge._refunds.map((refund) =>
      refund.id === event.data.refundId ? (refundView.fold(refund, event) ?? refund) : refund,
    ),
  );
}

function disputeChanged(current: ChargeDoc | null, event: ProjectedEvent<DisputeEvent>): ChargeDoc | null {
  if (!current) return current;
  const dispute = disputeView.fold(current._dispute ?? null, event);
  return dispute ? { ...current, disputed: true, dispute: embeddedDispute(dispute), _dispute: dispute } : current;
}

/** A payment-method charge waiting for the payer: `flow` says where to send them. */
function pendingCharge(event: ProjectedEvent<ChargePending>): ChargeDoc {
  const { data } = event;
  return {
    id: data.chargeId,
    created: occurredAtSeconds(event),
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
    ...tenantFields(event),
    _refunds: [],
    _captureWhenAuthorized: data.captured,
  };
}

/** The charge with its flow's next action (the redirect is only offered while the payer is awaited). */
function withNextAction(charge: ChargeDoc, nextAction: NextAction): ChargeDoc {
  return charge.flow ? { ...charge, flow: { nextAction, returnUrl: charge.flow.returnUrl } } : charge;
}

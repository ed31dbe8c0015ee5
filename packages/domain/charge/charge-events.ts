import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { CardSnapshot } from '../card/card-snapshot.ts';
import type { DomainEvent } from '../decider.ts';
import type { CardErrorCode } from '../errors.ts';
import type { Metadata } from '../metadata.ts';
import type { ChargeAftermathEvent } from './charge-aftermath.ts';
import { everyType } from '../event-types.ts';

export const chargeResource = resourceIdentity({ name: 'charge', idPrefix: 'char', stream: 'own' });
/** Refunds, disputes and fraud warnings live in the stream of their charge. */
export const refundResource = resourceIdentity({ name: 'refund', idPrefix: 're', stream: chargeResource });
export const disputeResource = resourceIdentity({ name: 'dispute', idPrefix: 'dp', stream: chargeResource });
export const fraudWarningResource = resourceIdentity({ name: 'fraudWarning', idPrefix: 'fw', stream: chargeResource });

/** Stream of one charge and its refunds: `charge-<chargeId>`. */
export const chargeStream = (chargeId: string): string => streamName(chargeResource, chargeId);

export type ChargeType = 'first_recurring' | 'subsequent_recurring' | 'merchant_initiated' | 'customer_initiated';
export type FraudStatus = 'safe' | 'suspicious' | 'fraudulent' | 'in_progress' | 'unknown';

export interface Address {
  line1?: string;
  line2?: string;
  zip?: string;
  city?: string;
  state?: string;
  country?: string;
}

export interface Shipping {
  name?: string;
  address?: Address;
  phone?: string;
}

export interface Billing {
  name?: string;
  email?: string;
  address?: Address;
  phone?: string;
  vat?: string;
}

export interface ThreeDSecureResult {
  amount: number;
  currency: string;
  enrolled: boolean;
  liabilityShift: 'pending' | 'successful' | 'failed' | 'not_possible';
  authenticationFlow: 'frictionless' | 'challenge' | null;
  /** 3-D Secure protocol version of the authentication; absent in results recorded before versions were. */
  version?: string | null;
}

/** Everything known when a charge is created, successful or not. */
/**
 * Where a charge made by buying a cross-sale offer came from, recorded on the offer owner's charge:
 * the offer, and the merchant whose checkout sold it with its main charge or subscription.
 */
export interface CrossSaleOrigin {
  offerId: string;
  merchantAccountId: string;
  merchantChargeId: string | null;
  merchantSubscriptionId: string | null;
}

/** A charge made on a partner's (or the merchant's own) account by buying one of its cross-sale offers. */
export interface CrossSaleChargeReference {
  /** The offer owner's account, where the charge was made. */
  accountId: string;
  chargeId: string;
  offerId: string;
}

export interface ChargeAttempt {
  chargeId: string;
  amount: number;
  currency: string;
  type: ChargeType | null;
  description: string | null;
  customerId: string | null;
  subscriptionId: string | null;
  /** Id the card has (or will have, once saved) as a customer's card. */
  cardId: string;
  card: CardSnapshot;
  captured: boolean;
  shipping: Shipping | null;
  billing: Billing | null;
  threeDSecureInfo: ThreeDSecureResult | null;
  avsCheck: { result: string } | null;
  fraudDetails: { status: FraudStatus; score: number };
  merchantAccountId: string | null;
  metadata: Metadata;
  /**
   * The network's reference of the authorization: captures and refunds address it. In live mode
   * the processor's own id of the payment.
   */
  networkTransactionId: string | null;
  /** Live mode: the account's processor (`proc_…`) that holds the payment (absent in test mode). */
  processorId?: string;
  /** Only on charges made by buying a cross-sale offer (absent from every other charge's events). */
  crossSale?: CrossSaleOrigin;
}

export interface ChargeFailure {
  failureCode: CardErrorCode;
  failureMessage: string;
  failureIssuerDeclineCode: string | null;
  /** Set when a blacklist rule blocked the charge. */
  blacklistRuleId: string | null;
}

export type ChargeSucceeded = DomainEvent<'ChargeSucceeded', ChargeAttempt>;
export type ChargeFailed = DomainEvent<'ChargeFailed', ChargeAttempt & ChargeFailure>;
/**
 * A live card charge whose processor's answer is unknown (a timeout, a lost answer, a 5xx): the
 * processor may have taken the payment. The charge stays `pending` until a lookup at the
 * processor settles it (`CardChargeSettled`); `networkTransactionId` is null until then.
 */
export type CardChargePending = DomainEvent<'CardChargePending', ChargeAttempt>;

/** The lookup found what the processor did with a pending card charge: taken, declined, or never received. */
export type CardChargeSettled = DomainEvent<
  'CardChargeSettled',
  {
    chargeId: string;
    networkTransactionId: string | null;
    processorId: string | null;
    /** Null when the processor took the payment. */
    failure: ChargeFailure | null;
  }
>;

export type ChargeCaptured = DomainEvent<'ChargeCaptured', { chargeId: string; amount: number }>;

/** Only the fields that changed are present. */
export type ChargeUpdated = DomainEvent<
  'ChargeUpdated',
  {
    chargeId: string;
    customerId?: string;
    description?: string | null;
    shipping?: Shipping | null;
    billing?: Billing | null;
    fraudDetails?: { status: FraudStatus; score: number };
    metadata?: Metadata;
  }
>;

/**
 * A refund reserves its amount at once; the network's answer settles it. A refund made at a live
 * charge's processor (reported by its notification) is recorded with `processorRefundId`, its id
 * there, and settled in the same append.
 */
export type RefundRequested = DomainEvent<
  'RefundRequested',
  {
    chargeId: string;
    refundId: string;
    amount: number;
    currency: string;
    reason: 'fraudulent' | null;
    metadata: Metadata;
    processorRefundId?: string;
  }
>;
export type RefundSettled = DomainEvent<
  'RefundSettled',
  { chargeId: string; refundId: string; status: 'successful' | 'failed' }
>;
export type RefundUpdated = DomainEvent<'RefundUpdated', { chargeId: string; refundId: string; metadata: Metadata }>;

/**
 * A cross-sale offer was bought after this (main) charge, in the merchant's checkout: the offer
 * owner's charge, for the merchant's records (the charge itself lives in the owner's account).
 */
export type CrossSaleChargeAdded = DomainEvent<
  'CrossSaleChargeAdded',
  { chargeId: string; crossSaleCharge: CrossSaleChargeReference }
>;

export type ChargeEvent =
  | ChargeSucceeded
  | ChargeFailed
  | CardChargePending
  | CardChargeSettled
  | ChargeCaptured
  | ChargeUpdated
  | RefundRequested
  | RefundSettled
  | RefundUpdated
  | CrossSaleChargeAdded
  // Disputes, fraud warnings and announced network outcomes (`charge-aftermath.ts`).
  | ChargeAftermathEvent;

export const chargeEventTypes = everyType<Exclude<ChargeEvent, ChargeAftermathEvent>>()([
  'ChargeSucceeded',
  'ChargeFailed',
  'CardChargePending',
  'CardChargeSettled',
  'ChargeCaptured',
  'ChargeUpdated',
  'RefundRequested',
  'RefundSettled',
  'RefundUpdated',
  'CrossSaleChargeAdded',
]);

/** The events of a charge's refunds (its refund objects fold them). */
export const refundEventTypes = everyType<RefundRequested | RefundSettled | RefundUpdated>()([
  'RefundRequested',
  'RefundSettled',
  'RefundUpdated',
]);

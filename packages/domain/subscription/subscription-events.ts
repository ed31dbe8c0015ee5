import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { Billing, ChargeType, CrossSaleChargeReference, Shipping } from '../charge/charge-events.ts';
import type { DomainEvent } from '../decider.ts';
import type { Metadata } from '../metadata.ts';
import type { BillingCycle } from './billing-period.ts';
import { everyType } from '../event-types.ts';

export const subscriptionResource = resourceIdentity({ name: 'subscription', idPrefix: 'sub', stream: 'own' });

/** Stream of one subscription: `subscription-<subscriptionId>`. */
export const subscriptionStream = (subscriptionId: string): string => streamName(subscriptionResource, subscriptionId);

export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'incomplete';

/** Why a subscription ended. */
export type CancellationReason =
  'requested' | 'period_end' | 'payment_failed' | 'billing_cycles_ended' | 'customer_deleted';

/** Fields of a subscription an update may change; only changed ones are present in events. */
export interface SubscriptionChanges {
  quantity?: number;
  captureCharges?: boolean;
  remainingBillingCycles?: number | null;
  /** While trialing, the trial (and so the current period) ends then. */
  trialEnd?: number;
  shipping?: Shipping | null;
  billing?: Billing | null;
  merchantAccountId?: string | null;
  metadata?: Metadata;
}

/** Times are Unix seconds on the customer's clock (a test clock for test-clock customers). */
export type SubscriptionCreated = DomainEvent<
  'SubscriptionCreated',
  {
    subscriptionId: string;
    customerId: string;
    /** The customer's test clock, or null: which clock drives this subscription's due work. */
    testClockId: string | null;
    planId: string;
    quantity: number;
    captureCharges: boolean;
    /** `trialing`, or `incomplete` until the first charge (recorded right after) settles. */
    status: 'trialing' | 'incomplete';
    remainingBillingCycles: number | null;
    start: number;
    trialStart: number | null;
    trialEnd: number | null;
    currentPeriodStart: number;
    currentPeriodEnd: number;
    /** Null while trialing: paid periods start at the trial's end. */
    cycle: BillingCycle | null;
    shipping: Shipping | null;
    billing: Billing | null;
    merchantAccountId: string | null;
    metadata: Metadata;
  }
>;

export type SubscriptionUpdated = DomainEvent<'SubscriptionUpdated', { subscriptionId: string } & SubscriptionChanges>;

/** A new plan, by an update or by recursion after the last billing cycle: `start` restarts. */
export type SubscriptionPlanChanged = DomainEvent<
  'SubscriptionPlanChanged',
  {
    subscriptionId: string;
    planId: string;
    previousPlanId: string;
    reason: 'update' | 'recursion';
    start: number;
    currentPeriodStart: number;
    currentPeriodEnd: number;
    cycle: BillingCycle | null;
    remainingBillingCycles: number | null;
  }
>;

/** The next billing period began (at the end of a trial, or a renewal). Its charge is recorded right after. */
export type SubscriptionPeriodStarted = DomainEvent<
  'SubscriptionPeriodStarted',
  {
    subscriptionId: string;
    currentPeriodStart: number;
    currentPeriodEnd: number;
    cycle: BillingCycle;
    remainingBillingCycles: number | null;
  }
>;

/**
 * A charge for a period is about to be made, under this charge id. Recorded before the charge, so
 * that a worker that dies afterwards is followed by one that finds (or makes) that same charge.
 * `attempt` 0 is the period's first charge; 1, 2, 3 are retries.
 */
export type SubscriptionPaymentStarted = DomainEvent<
  'SubscriptionPaymentStarted',
  {
    subscriptionId: string;
    periodStart: number;
    attempt: number;
    chargeId: string;
    amount: number;
    currency: string;
    chargeType: ChargeType;
    /** Whether a capture follows the authorization (the subscription's captureCharges then). */
    capture: boolean;
    startedAt: number;
    /**
     * Only on the first payment of a subscription created in the request that saved its card from
     * this token: whoever makes the charge (that request, its retry, or a worker finishing it)
     * makes it with the token's 3-D Secure verification, as the cardholder was present for it.
     */
    justSavedFromToken?: string;
  }
>;

export type SubscriptionPaymentSucceeded = DomainEvent<
  'SubscriptionPaymentSucceeded',
  {
    subscriptionId: string;
    periodStart: number;
    attempt: number;
    chargeId: string;
    capture: boolean;
    status: 'active';
    previousStatus: SubscriptionStatus;
  }
>;

export type SubscriptionPaymentFailed = DomainEvent<
  'SubscriptionPaymentFailed',
  {
    subscriptionId: string;
    periodStart: number;
    attempt: number;
    /** Null when no charge could be made (the customer has no default card). */
    chargeId: string | null;
    failureCode: string | null;
    failureMessage: string;
    status: SubscriptionStatus;
    previousStatus: SubscriptionStatus;
    /** When the next retry is due; null when none follows. */
    nextRetryAt: number | null;
  }
>;

/** DELETE with atPeriodEnd: the subscription runs until `endedAt` (its current period's end). */
export type SubscriptionCancellationScheduled = DomainEvent<
  'SubscriptionCancellationScheduled',
  { subscriptionId: string; canceledAt: number; endedAt: number }
>;

export type SubscriptionCanceled = DomainEvent<
  'SubscriptionCanceled',
  { subscriptionId: string; canceledAt: number; endedAt: number; reason: CancellationReason }
>;

/**
 * A cross-sale offer was bought in the checkout that created this subscription (when that
 * checkout made no charge of its own, e.g. a trial): the offer owner's charge, for the merchant's
 * records.
 */
export type SubscriptionCrossSaleChargeAdded = DomainEvent<
  'SubscriptionCrossSaleChargeAdded',
  { subscriptionId: string; crossSaleCharge: CrossSaleChargeReference }
>;

export type SubscriptionEvent =
  | SubscriptionCreated
  | SubscriptionUpdated
  | SubscriptionPlanChanged
  | SubscriptionPeriodStarted
  | SubscriptionPaymentStarted
  | SubscriptionPaymentSucceeded
  | SubscriptionPaymentFailed
  | SubscriptionCancellationScheduled
  | SubscriptionCanceled
  | SubscriptionCrossSaleChargeAdded;

export const subscriptionEventTypes = everyType<SubscriptionEvent>()([
  'SubscriptionCreated',
  'SubscriptionUpdated',
  'SubscriptionPlanChanged',
  'SubscriptionPeriodStarted',
  'SubscriptionPaymentStarted',
  'SubscriptionPaymentSucceeded',
  'SubscriptionPaymentFailed',
  'SubscriptionCancellationScheduled',
  'SubscriptionCanceled',
  'SubscriptionCrossSaleChargeAdded',
]);

import type { Billing, CrossSaleChargeReference, Shipping } from '../charge/charge-events.ts';
import type { Metadata } from '../metadata.ts';
import type { SubscriptionChanges } from './subscription-events.ts';
import type { PlanSnapshot } from './subscription-payment.ts';

/** What became of a subscription's charge. `charged` false: no charge could be made at all. */
/**
 * `captured`: the charge was captured as it was made (subscriptions that capture charges make
 * them captured); absent or false on an authorization still to be captured.
 */
export type PaymentOutcome =
  | { succeeded: true; captured?: boolean }
  | { succeeded: false; charged: boolean; failureCode: string | null; failureMessage: string };

/** `trialEnd` -1 means "no trial". Times are Unix seconds. */
export interface CreateSubscription {
  type: 'CreateSubscription';
  subscriptionId: string;
  customerId: string;
  testClockId: string | null;
  plan: PlanSnapshot;
  quantity: number;
  captureCharges: boolean;
  remainingBillingCycles?: number;
  trialEnd?: number;
  shipping: Shipping | null;
  billing: Billing | null;
  merchantAccountId: string | null;
  metadata: Metadata;
  /** Id of the first charge, when one is made now. */
  chargeId: string;
  /**
   * The token the customer's default card was saved from in this same request: the first charge,
   * made now, carries that token's 3-D Secure verification (`SubscriptionPaymentStarted`).
   */
  justSavedFromToken?: string;
  now: number;
}

/** `changes.trialEnd` -1 means "end the trial now". */
export interface UpdateSubscription {
  type: 'UpdateSubscription';
  subscriptionId: string;
  changes: SubscriptionChanges;
  plan?: PlanSnapshot;
  chargeId: string;
  now: number;
}

export interface StartPeriod {
  type: 'StartPeriod';
  subscriptionId: string;
  periodStart: number;
  plan: PlanSnapshot;
  chargeId: string;
  now: number;
}

export interface RecurToPlan {
  type: 'RecurToPlan';
  subscriptionId: string;
  periodStart: number;
  plan: PlanSnapshot;
  chargeId: string;
  now: number;
}

export interface RetryPayment {
  type: 'RetryPayment';
  subscriptionId: string;
  periodStart: number;
  attempt: number;
  plan: PlanSnapshot;
  chargeId: string;
  now: number;
}

export interface EndPeriod {
  type: 'EndPeriod';
  subscriptionId: string;
  periodEnd: number;
}

export interface SettlePayment {
  type: 'SettlePayment';
  subscriptionId: string;
  chargeId: string;
  outcome: PaymentOutcome;
  failureStatus: 'canceled' | 'unpaid';
  now: number;
}

export interface CancelSubscription {
  type: 'CancelSubscription';
  subscriptionId: string;
  atPeriodEnd: boolean;
  now: number;
}

export interface CancelForDeletedCustomer {
  type: 'CancelForDeletedCustomer';
  subscriptionId: string;
  now: number;
}

export interface AddCrossSaleCharge {
  type: 'AddCrossSaleCharge';
  subscriptionId: string;
  crossSaleCharge: CrossSaleChargeReference;
}

export type SubscriptionCommand =
  | CreateSubscription
  | UpdateSubscription
  | StartPeriod
  | RecurToPlan
  | RetryPayment
  | EndPeriod
  | SettlePayment
  | CancelSubscription
  | CancelForDeletedCustomer
  | AddCrossSaleCharge;

import type { Billing, ChargeType, CrossSaleChargeReference, Shipping } from '../charge/charge-events.ts';
import type { Metadata } from '../metadata.ts';
import type { BillingCycle } from './billing-period.ts';
import type { SubscriptionEvent, SubscriptionStatus } from './subscription-events.ts';

/** A charge recorded as started but not yet settled on the subscription. */
export interface PendingPayment {
  periodStart: number;
  attempt: number;
  chargeId: string;
  amount: number;
  currency: string;
  chargeType: ChargeType;
  capture: boolean;
  startedAt: number;
  /** The token whose 3-D Secure verification the charge carries (a first payment only). */
  justSavedFromToken?: string;
}

export interface SubscriptionFields {
  subscriptionId: string;
  customerId: string;
  testClockId: string | null;
  planId: string;
  quantity: number;
  captureCharges: boolean;
  remainingBillingCycles: number | null;
  start: number;
  trialStart: number | null;
  trialEnd: number | null;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  canceledAt: number | null;
  endedAt: number | null;
  cancelAtPeriodEnd: boolean;
  shipping: Shipping | null;
  billing: Billing | null;
  merchantAccountId: string | null;
  metadata: Metadata;
}

export type SubscriptionState =
  | { status: 'none' }
  | ({
      status: SubscriptionStatus;
      cycle: BillingCycle | null;
      pendingPayment: PendingPayment | null;
      /** Failed attempts for the current period; the next retry is attempt number `failedAttempts`. */
      failedAttempts: number;
      nextRetryAt: number | null;
      /** Whether a charge of this subscription ever succeeded: later charges are `subsequent_recurring`. */
      paidOnce: boolean;
      /** Cross-sale offers bought in the checkout that created it (absent until the first). */
      crossSaleCharges?: CrossSaleChargeReference[];
    } & SubscriptionFields);

export type ExistingSubscription = Exclude<SubscriptionState, { status: 'none' }>;

export const initialSubscriptionState = (): SubscriptionState => ({ status: 'none' });

export function evolveSubscription(state: SubscriptionState, event: SubscriptionEvent): SubscriptionState {
  if (event.type === 'SubscriptionCreated') {
    return {
      ...event.data,
      canceledAt: null,
      endedAt: null,
      cancelAtPeriodEnd: false,
      pendingPayment: null,
      failedAttempts: 0,
      nextRetryAt: null,
      paidOnce: false,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'SubscriptionUpdated': {
      const { subscriptionId: _id, ...changes } = event.data;
      const next = { ...state, ...changes };
      // The trial is the current period while trialing.
      if (changes.trialEnd !== undefined && state.status === 'trialing') next.currentPeriodEnd = changes.trialEnd;
      return next;
    }
    case 'SubscriptionPlanChanged': {
      const { subscriptionId: _id, previousPlanId: _previous, reason: _reason, ...changes } = event.data;
      return { ...state, ...changes, failedAttempts: 0, nextRetryAt: null };
    }
    case 'SubscriptionPeriodStarted': {
      const { subscriptionId: _id, ...changes } = event.data;
      return { ...state, ...changes, failedAttempts: 0, nextRetryAt: null };
    }
    case 'SubscriptionPaymentStarted': {
      const { subscriptionId: _id, ...payment } = event.data;
      return { ...state, pendingPayment: payment };
    }
    case 'SubscriptionPaymentSucceeded':
      return {
        ...state,
        status: event.data.status,
        pendingPayment: null,
        failedAttempts: 0,
        nextRetryAt: null,
        paidOnce: true,
      };
    case 'SubscriptionPaymentFailed':
      return {
        ...state,
        status: event.data.status,
        pendingPayment: null,
        failedAttempts: event.data.attempt + 1,
        nextRetryAt: event.data.nextRetryAt,
      };
    case 'SubscriptionCancellationScheduled':
      return { ...state, cancelAtPeriodEnd: true, canceledAt: event.data.canceledAt, endedAt: event.data.endedAt };
    case 'SubscriptionCanceled':
      return {
        ...state,
        status: 'canceled',
        canceledAt: event.data.canceledAt,
        endedAt: event.data.endedAt,
        pendingPayment: null,
        nextRetryAt: null,
      };
    case 'SubscriptionCrossSaleChargeAdded':
      return { ...state, crossSaleCharges: [...(state.crossSaleCharges ?? []), event.data.crossSaleCharge] };
  }
}

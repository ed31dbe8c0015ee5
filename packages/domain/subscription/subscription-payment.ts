import type { PlanInterval } from '../plan/plan-events.ts';
import type { SubscriptionPaymentStarted } from './subscription-events.ts';
import type { ExistingSubscription } from './subscription-state.ts';

/** A plan's terms as read when deciding (plans are their own streams; the amount applies at each charge). */
export interface PlanSnapshot {
  planId: string;
  amount: number;
  currency: string;
  interval: PlanInterval;
  intervalCount: number;
  billingCycles: number | null;
  trialPeriodDays: number | null;
}

/**
 * A payment a subscription starts: for which period and which attempt (0 the first, then the
 * retries), of which plan, under which charge id, and when. The quantity and whether the charge
 * is captured are the subscription's own.
 */
export interface SubscriptionPayment {
  periodStart: number;
  attempt: number;
  plan: PlanSnapshot;
  chargeId: string;
  startedAt: number;
  /** For the first payment made in the request that saved the card from this token. */
  justSavedFromToken?: string;
}

export function paymentStarted(sub: ExistingSubscription, payment: SubscriptionPayment): SubscriptionPaymentStarted {
  const { plan } = payment;
  return {
    type: 'SubscriptionPaymentStarted',
    data: {
      subscriptionId: sub.subscriptionId,
      periodStart: payment.periodStart,
      attempt: payment.attempt,
      chargeId: payment.chargeId,
      // The plan's amount at the time of charging (spec: plan changes affect later charges only).
      amount: plan.amount * sub.quantity,
      currency: plan.currency,
      chargeType: sub.paidOnce ? 'subsequent_recurring' : 'first_recurring',
      capture: sub.captureCharges,
      startedAt: payment.startedAt,
      ...(payment.justSavedFromToken ? { justSavedFromToken: payment.justSavedFromToken } : {}),
    },
  };
}

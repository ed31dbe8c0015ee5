import { firstCycle, nextCycle, periodEndOf } from './billing-period.ts';
import type { EndPeriod, RecurToPlan, RetryPayment, SettlePayment, StartPeriod } from './subscription-command.ts';
import type { SubscriptionEvent } from './subscription-events.ts';
import { canceled } from './subscription-lifecycle-decisions.ts';
import { paymentStarted, type PlanSnapshot } from './subscription-payment.ts';
import { RETRY_DELAYS_SECONDS } from './subscription-schedule.ts';
import type { ExistingSubscription } from './subscription-state.ts';

/*
 * The decisions of the due work on a subscription's periods and payments. Each names the period
 * (and attempt, or charge) it is for, and records nothing when that work is already done.
 */

/** The next period of a trialing or active subscription, charged at its start. */
export function startPeriod(command: StartPeriod, sub: ExistingSubscription): SubscriptionEvent[] {
  const due =
    atBoundary(sub, command.periodStart, ['trialing', 'active']) &&
    !sub.cancelAtPeriodEnd &&
    sub.remainingBillingCycles !== 0;
  if (!due || sub.planId !== command.plan.planId) return [];
  const cycle =
    sub.status === 'trialing'
      ? firstCycle(command.periodStart, command.plan)
      : nextCycle(sub.cycle, command.periodStart, command.plan);
  return [
    {
      type: 'SubscriptionPeriodStarted',
      data: {
        subscriptionId: sub.subscriptionId,
        currentPeriodStart: command.periodStart,
        currentPeriodEnd: periodEndOf(cycle),
        cycle,
        remainingBillingCycles: sub.remainingBillingCycles === null ? null : sub.remainingBillingCycles - 1,
      },
    },
    paymentStarted(sub, firstAttempt(command)),
  ];
}

/** The plan's billing cycles are used up: the subscription goes on with the plan it recurs to. */
export function recurToPlan(command: RecurToPlan, sub: ExistingSubscription): SubscriptionEvent[] {
  if (
    !atBoundary(sub, command.periodStart, ['trialing', 'active']) ||
    sub.cancelAtPeriodEnd ||
    sub.remainingBillingCycles !== 0
  )
    return [];
  const cycle = firstCycle(command.periodStart, command.plan);
  return [
    {
      type: 'SubscriptionPlanChanged',
      data: {
        subscriptionId: sub.subscriptionId,
        planId: command.plan.planId,
        previousPlanId: sub.planId,
        reason: 'recursion',
        start: command.periodStart,
        currentPeriodStart: command.periodStart,
        currentPeriodEnd: periodEndOf(cycle),
        cycle,
        remainingBillingCycles: command.plan.billingCycles === null ? null : command.plan.billingCycles - 1,
      },
    },
    paymentStarted(sub, firstAttempt(command)),
  ];
}

/** A past-due subscription's next attempt at the period's payment, when it is the one due. */
export function retryPayment(command: RetryPayment, sub: ExistingSubscription): SubscriptionEvent[] {
  const due =
    sub.status === 'past_due' &&
    !sub.pendingPayment &&
    sub.nextRetryAt !== null &&
    sub.currentPeriodStart === command.periodStart &&
    sub.failedAttempts === command.attempt &&
    sub.planId === command.plan.planId;
  if (!due) return [];
  const { periodStart, attempt, plan, chargeId, now } = command;
  return [paymentStarted(sub, { periodStart, attempt, plan, chargeId, startedAt: now })];
}

/** The end of a period: a cancellation scheduled for it, or the last billing cycle, ends the subscription. */
export function endPeriod(command: EndPeriod, sub: ExistingSubscription): SubscriptionEvent[] {
  if (!atBoundary(sub, command.periodEnd, ['trialing', 'active', 'past_due'])) return [];
  if (sub.cancelAtPeriodEnd) {
    return [canceled(sub, sub.canceledAt ?? command.periodEnd, command.periodEnd, 'period_end')];
  }
  if (sub.remainingBillingCycles === 0 && sub.status !== 'past_due') {
    return [canceled(sub, command.periodEnd, command.periodEnd, 'billing_cycles_ended')];
  }
  return [];
}

/** The first attempt at a period's payment, started when the command runs. */
function firstAttempt(command: { periodStart: number; plan: PlanSnapshot; chargeId: string; now: number }) {
  return {
    periodStart: command.periodStart,
    attempt: 0,
    plan: command.plan,
    chargeId: command.chargeId,
    startedAt: command.now,
  };
}

export function settle(command: SettlePayment, sub: ExistingSubscription): SubscriptionEvent[] {
  const pending = sub.pendingPayment;
  if (!pending || pending.chargeId !== command.chargeId) return [];
  const { periodStart, attempt } = pending;
  const subscriptionId = sub.subscriptionId;
  const { outcome } = command;
  if (outcome.succeeded) {
    return [
      {
        type: 'SubscriptionPaymentSucceeded',
        data: {
          subscriptionId,
          periodStart,
          attempt,
          chargeId: pending.chargeId,
          // A capture is still owed only for an authorization (made before charges were captured at once).
          capture: pending.capture && !outcome.captured,
          status: 'active',
          previousStatus: sub.status,
        },
      },
    ];
  }
  const failure = {
    subscriptionId,
    periodStart,
    attempt,
    chargeId: outcome.charged ? pending.chargeId : null,
    failureCode: outcome.failureCode,
    failureMessage: outcome.failureMessage,
    previousStatus: sub.status,
  };
  // The first charge of a subscription created without a trial: it stays incomplete, never retried.
  if (sub.status === 'incomplete')
    return [{ type: 'SubscriptionPaymentFailed', data: { ...failure, status: 'incomplete', nextRetryAt: null } }];
  const delay = RETRY_DELAYS_SECONDS[attempt];
  if (delay !== undefined) {
    return [
      {
        type: 'SubscriptionPaymentFailed',
        data: { ...failure, status: 'past_due', nextRetryAt: Math.max(periodStart + delay, command.now) },
      },
    ];
  }
  if (command.failureStatus === 'unpaid')
    return [{ type: 'SubscriptionPaymentFailed', data: { ...failure, status: 'unpaid', nextRetryAt: null } }];
  return [
    { type: 'SubscriptionPaymentFailed', data: { ...failure, status: 'past_due', nextRetryAt: null } },
    canceled(sub, command.now, command.now, 'payment_failed'),
  ];
}

/** The subscription is in one of `statuses`, has no charge in flight, and its current period ends at `boundary`. */
function atBoundary(sub: ExistingSubscription, boundary: number, statuses: string[]): boolean {
  return statuses.includes(sub.status) && !sub.pendingPayment && sub.currentPeriodEnd === boundary;
}

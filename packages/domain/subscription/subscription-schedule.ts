import type { SubscriptionState } from './subscription-state.ts';

const DAY = 86_400;

/**
 * When a failed charge of a period is retried: 1, 3 and 5 days after the period's start (the
 * moment the failed renewal was due). After the third retry fails, the subscription becomes
 * `canceled` or `unpaid`, by the account's `subscriptionFailureStatus`.
 */
export const RETRY_DELAYS_SECONDS: readonly number[] = [1 * DAY, 3 * DAY, 5 * DAY];

/**
 * The next piece of work a subscription waits for, and when it falls due (Unix seconds on the
 * subscription's clock). Workers and test clocks run exactly these, in time order.
 * - `payment`: a charge was recorded as started but not settled (a worker died): finish it.
 * - `trial_end`: the trial is over; the first paid period starts and is charged.
 * - `renewal`: the current period is over; the next one starts and is charged.
 * - `retry`: a failed charge of the current period is tried again.
 * - `period_end_cancellation`: canceled with atPeriodEnd; the period is over.
 * - `billing_cycles_end`: the last billing cycle is over; the plan's `recursTo` then takes over, or the subscription ends.
 */
export type DueStep =
  | { kind: 'payment'; at: number; chargeId: string }
  | {
      kind: 'trial_end' | 'renewal' | 'period_end_cancellation' | 'billing_cycles_end';
      at: number;
      periodStart: number;
    }
  | { kind: 'retry'; at: number; periodStart: number; attempt: number };

export function nextStep(state: SubscriptionState): DueStep | null {
  if (state.status === 'none' || state.status === 'canceled' || state.status === 'unpaid') return null;
  if (state.pendingPayment)
    return { kind: 'payment', at: state.pendingPayment.startedAt, chargeId: state.pendingPayment.chargeId };
  // An incomplete subscription (its first charge failed) is never charged again.
  if (state.status === 'incomplete') return null;
  const periodEnd = state.currentPeriodEnd;
  const cancellation = state.cancelAtPeriodEnd
    ? ({ kind: 'period_end_cancellation', at: periodEnd, periodStart: periodEnd } as const)
    : null;
  if (state.status === 'past_due') {
    // Renewals wait until the overdue period is paid; a scheduled cancellation does not.
    const retry =
      state.nextRetryAt === null
        ? null
        : ({
            kind: 'retry',
            at: state.nextRetryAt,
            periodStart: state.currentPeriodStart,
            attempt: state.failedAttempts,
          } as const);
    if (cancellation && (!retry || cancellation.at <= retry.at)) return cancellation;
    return retry;
  }
  if (cancellation) return cancellation;
  if (state.remainingBillingCycles === 0) return { kind: 'billing_cycles_end', at: periodEnd, periodStart: periodEnd };
  if (state.status === 'trialing') return { kind: 'trial_end', at: periodEnd, periodStart: periodEnd };
  return { kind: 'renewal', at: periodEnd, periodStart: periodEnd };
}

/** Whether two steps are the same piece of work (a job for `expected` still applies to the state). */
export function sameStep(a: DueStep, b: DueStep): boolean {
  const key = (step: DueStep) =>
    [
      step.kind,
      step.at,
      'periodStart' in step ? step.periodStart : null,
      'attempt' in step ? step.attempt : null,
      'chargeId' in step ? step.chargeId : null,
    ].join('|');
  return key(a) === key(b);
}

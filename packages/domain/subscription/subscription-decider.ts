import type { Billing, CrossSaleChargeReference, Shipping } from '../charge/charge-events.ts';
import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import { sameMetadata, type Metadata } from '../metadata.ts';
import { firstCycle, nextCycle, periodEndOf, type BillingCycle } from './billing-period.ts';
import type { SubscriptionChanges, SubscriptionEvent, SubscriptionUpdated } from './subscription-events.ts';
import { paymentStarted, type PlanSnapshot } from './subscription-payment.ts';
import { RETRY_DELAYS_SECONDS } from './subscription-schedule.ts';
import {
  evolveSubscription,
  initialSubscriptionState,
  type ExistingSubscription,
  type SubscriptionState,
} from './subscription-state.ts';

export type { PlanSnapshot } from './subscription-payment.ts';

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

/**
 * Subscriptions (spec: States and transitions › Subscription). Every command that the due work
 * runs (StartPeriod, RecurToPlan, RetryPayment, EndPeriod, SettlePayment) names the period (and
 * attempt, or charge) it is for, and records nothing when that work is already done: running it
 * twice never charges twice.
 */
export const subscriptionDecider: Decider<SubscriptionCommand, SubscriptionEvent, SubscriptionState> = {
  initialState: initialSubscriptionState,
  evolve: evolveSubscription,
  decide(command, state) {
    switch (command.type) {
      case 'CreateSubscription':
        return create(command, state);
      case 'UpdateSubscription':
        return update(command, requireLive(state, command.subscriptionId));
      case 'StartPeriod':
        return startPeriod(command, requireExisting(state, command.subscriptionId));
      case 'RecurToPlan':
        return recurToPlan(command, requireExisting(state, command.subscriptionId));
      case 'RetryPayment':
        return retryPayment(command, requireExisting(state, command.subscriptionId));
      case 'EndPeriod':
        return endPeriod(command, requireExisting(state, command.subscriptionId));
      case 'SettlePayment':
        return settle(command, requireExisting(state, command.subscriptionId));
      case 'CancelSubscription':
        return cancel(command, requireExisting(state, command.subscriptionId));
      case 'CancelForDeletedCustomer':
        return cancelForDeletedCustomer(command, requireExisting(state, command.subscriptionId));
      case 'AddCrossSaleCharge':
        return addCrossSaleCharge(command, requireExisting(state, command.subscriptionId));
    }
  },
};

/** The next period of a trialing or active subscription, charged at its start. */
function startPeriod(command: StartPeriod, sub: ExistingSubscription): SubscriptionEvent[] {
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
function recurToPlan(command: RecurToPlan, sub: ExistingSubscription): SubscriptionEvent[] {
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
function retryPayment(command: RetryPayment, sub: ExistingSubscription): SubscriptionEvent[] {
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
function endPeriod(command: EndPeriod, sub: ExistingSubscription): SubscriptionEvent[] {
  if (!atBoundary(sub, command.periodEnd, ['trialing', 'active', 'past_due'])) return [];
  if (sub.cancelAtPeriodEnd) {
    return [canceled(sub, sub.canceledAt ?? command.periodEnd, command.periodEnd, 'period_end')];
  }
  if (sub.remainingBillingCycles === 0 && sub.status !== 'past_due') {
    return [canceled(sub, command.periodEnd, command.periodEnd, 'billing_cycles_ended')];
  }
  return [];
}

function cancel(command: CancelSubscription, sub: ExistingSubscription): SubscriptionEvent[] {
  if (sub.status === 'canceled')
    throw new InvalidRequestError(`Subscription '${command.subscriptionId}' has already been canceled`);
  // Only a subscription that is being served has a period end to wait for.
  if (command.atPeriodEnd && ['trialing', 'active', 'past_due'].includes(sub.status)) {
    if (sub.cancelAtPeriodEnd) return [];
    return [
      {
        type: 'SubscriptionCancellationScheduled',
        data: { subscriptionId: sub.subscriptionId, canceledAt: command.now, endedAt: sub.currentPeriodEnd },
      },
    ];
  }
  return [canceled(sub, command.now, command.now, 'requested')];
}

function cancelForDeletedCustomer(command: CancelForDeletedCustomer, sub: ExistingSubscription): SubscriptionEvent[] {
  return sub.status === 'canceled' ? [] : [canceled(sub, command.now, command.now, 'customer_deleted')];
}

function addCrossSaleCharge(command: AddCrossSaleCharge, sub: ExistingSubscription): SubscriptionEvent[] {
  // Listed already (the same purchase again): nothing recorded.
  if (sub.crossSaleCharges?.some((listed) => listed.chargeId === command.crossSaleCharge.chargeId)) return [];
  return [
    {
      type: 'SubscriptionCrossSaleChargeAdded',
      data: { subscriptionId: command.subscriptionId, crossSaleCharge: command.crossSaleCharge },
    },
  ];
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

function create(command: CreateSubscription, state: SubscriptionState): SubscriptionEvent[] {
  if (state.status !== 'none') throw new InvalidRequestError(`Subscription '${command.subscriptionId}' already exists`);
  const { now, plan } = command;
  let trialEnd: number | null = null;
  if (command.trialEnd !== undefined && command.trialEnd !== -1) {
    if (command.trialEnd <= now)
      throw new InvalidRequestError('Invalid parameter: trialEnd must be in the future, or -1 for no trial');
    trialEnd = command.trialEnd;
  } else if (command.trialEnd === undefined && plan.trialPeriodDays) {
    trialEnd = now + plan.trialPeriodDays * 86_400;
  }
  const cycles = command.remainingBillingCycles ?? plan.billingCycles;
  const common = {
    subscriptionId: command.subscriptionId,
    customerId: command.customerId,
    testClockId: command.testClockId,
    planId: plan.planId,
    quantity: command.quantity,
    captureCharges: command.captureCharges,
    start: now,
    shipping: command.shipping,
    billing: command.billing,
    merchantAccountId: command.merchantAccountId,
    metadata: command.metadata,
  };
  if (trialEnd !== null) {
    return [
      {
        type: 'SubscriptionCreated',
        data: {
          ...common,
          status: 'trialing',
          remainingBillingCycles: cycles,
          trialStart: now,
          trialEnd,
          currentPeriodStart: now,
          currentPeriodEnd: trialEnd,
          cycle: null,
        },
      },
    ];
  }
  const cycle = firstCycle(now, plan);
  const created: SubscriptionEvent = {
    type: 'SubscriptionCreated',
    data: {
      ...common,
      status: 'incomplete',
      remainingBillingCycles: cycles === null ? null : cycles - 1,
      trialStart: null,
      trialEnd: null,
      currentPeriodStart: now,
      currentPeriodEnd: periodEndOf(cycle),
      cycle,
    },
  };
  const sub = evolveSubscription(state, created) as ExistingSubscription;
  return [
    created,
    paymentStarted(sub, { periodStart: now, attempt: 0, plan, chargeId: command.chargeId, startedAt: now }),
  ];
}

function update(command: UpdateSubscription, sub: ExistingSubscription): SubscriptionEvent[] {
  const { changes: asked, now } = command;
  const planChange = command.plan !== undefined && command.plan.planId !== sub.planId ? command.plan : null;
  const changes: SubscriptionUpdated['data'] = { subscriptionId: sub.subscriptionId };
  const simple = ['quantity', 'captureCharges', 'remainingBillingCycles', 'merchantAccountId'] as const;
  for (const field of simple) {
    // With a new plan, remainingBillingCycles counts that plan's cycles (recorded with the change).
    if (field === 'remainingBillingCycles' && planChange) continue;
    if (asked[field] !== undefined && asked[field] !== sub[field])
      (changes as unknown as Record<string, unknown>)[field] = asked[field];
  }
  for (const field of ['shipping', 'billing'] as const) {
    if (asked[field] !== undefined && JSON.stringify(asked[field]) !== JSON.stringify(sub[field]))
      (changes as unknown as Record<string, unknown>)[field] = asked[field];
  }
  if (asked.metadata !== undefined && !sameMetadata(asked.metadata, sub.metadata)) changes.metadata = asked.metadata;
  if (asked.trialEnd !== undefined) {
    if (sub.status !== 'trialing')
      throw new InvalidRequestError(
        'Invalid parameter: trialEnd can only be changed while the subscription is trialing',
      );
    const trialEnd = asked.trialEnd === -1 ? now : asked.trialEnd;
    if (asked.trialEnd !== -1 && trialEnd <= now)
      throw new InvalidRequestError('Invalid parameter: trialEnd must be in the future, or -1 to end the trial now');
    if (trialEnd !== sub.trialEnd) changes.trialEnd = trialEnd;
  }
  const events: SubscriptionEvent[] = [];
  // An update that changes nothing records nothing (and emits no CUSTOMER_SUBSCRIPTION_UPDATED).
  if (Object.keys(changes).length > 1) events.push({ type: 'SubscriptionUpdated', data: changes });
  if (!planChange) return events;

  if (!['trialing', 'active', 'past_due'].includes(sub.status)) {
    throw new InvalidRequestError(`Subscription '${sub.subscriptionId}' is ${sub.status}; its plan cannot be changed`);
  }
  if (sub.pendingPayment)
    throw new InvalidRequestError(`A charge of subscription '${sub.subscriptionId}' is in progress; try again`);
  const updated = events.reduce(evolveSubscription, sub as SubscriptionState) as ExistingSubscription;
  const override = asked.remainingBillingCycles;
  const base = {
    subscriptionId: sub.subscriptionId,
    planId: planChange.planId,
    previousPlanId: sub.planId,
    reason: 'update' as const,
    start: now,
  };
  if (updated.status === 'trialing') {
    // The trial goes on; its end charges the new plan.
    events.push({
      type: 'SubscriptionPlanChanged',
      data: {
        ...base,
        currentPeriodStart: updated.currentPeriodStart,
        currentPeriodEnd: updated.currentPeriodEnd,
        cycle: null,
        remainingBillingCycles: override !== undefined ? override : planChange.billingCycles,
      },
    });
    return events;
  }
  // A new plan starts a new period now, charged now; the rest of the old period is not refunded.
  const cycle: BillingCycle = firstCycle(now, planChange);
  const remaining =
    override !== undefined ? override : planChange.billingCycles === null ? null : planChange.billingCycles - 1;
  events.push({
    type: 'SubscriptionPlanChanged',
    data: {
      ...base,
      currentPeriodStart: now,
      currentPeriodEnd: periodEndOf(cycle),
      cycle,
      remainingBillingCycles: remaining,
    },
  });
  events.push(
    paymentStarted(updated, {
      periodStart: now,
      attempt: 0,
      plan: planChange,
      chargeId: command.chargeId,
      startedAt: now,
    }),
  );
  return events;
}

function settle(command: SettlePayment, sub: ExistingSubscription): SubscriptionEvent[] {
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

function canceled(
  sub: ExistingSubscription,
  canceledAt: number,
  endedAt: number,
  reason: Extract<SubscriptionEvent, { type: 'SubscriptionCanceled' }>['data']['reason'],
): SubscriptionEvent {
  return { type: 'SubscriptionCanceled', data: { subscriptionId: sub.subscriptionId, canceledAt, endedAt, reason } };
}

/** The subscription is in one of `statuses`, has no charge in flight, and its current period ends at `boundary`. */
function atBoundary(sub: ExistingSubscription, boundary: number, statuses: string[]): boolean {
  return statuses.includes(sub.status) && !sub.pendingPayment && sub.currentPeriodEnd === boundary;
}

function requireExisting(state: SubscriptionState, subscriptionId: string): ExistingSubscription {
  if (state.status === 'none') throw new NotFoundError('Subscription', subscriptionId);
  return state;
}

function requireLive(state: SubscriptionState, subscriptionId: string): ExistingSubscription {
  const sub = requireExisting(state, subscriptionId);
  if (sub.status === 'canceled') throw new InvalidRequestError(`Subscription '${subscriptionId}' has been canceled`);
  return sub;
}

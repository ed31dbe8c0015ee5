import { InvalidRequestError } from '../errors.ts';
import { sameMetadata } from '../metadata.ts';
import { firstCycle, periodEndOf, type BillingCycle } from './billing-period.ts';
import type {
  AddCrossSaleCharge,
  CancelForDeletedCustomer,
  CancelSubscription,
  CreateSubscription,
  UpdateSubscription,
} from './subscription-command.ts';
import type { SubscriptionEvent, SubscriptionUpdated } from './subscription-events.ts';
import { paymentStarted } from './subscription-payment.ts';
import { evolveSubscription, type ExistingSubscription, type SubscriptionState } from './subscription-state.ts';

/* The decisions on a subscription's life asked for by the merchant: creation, changes, cancellation. */

export function create(command: CreateSubscription, state: SubscriptionState): SubscriptionEvent[] {
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
    paymentStarted(sub, {
      periodStart: now,
      attempt: 0,
      plan,
      chargeId: command.chargeId,
      startedAt: now,
      ...(command.justSavedFromToken ? { justSavedFromToken: command.justSavedFromToken } : {}),
    }),
  ];
}

export function update(command: UpdateSubscription, sub: ExistingSubscription): SubscriptionEvent[] {
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

export function cancel(command: CancelSubscription, sub: ExistingSubscription): SubscriptionEvent[] {
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

export function cancelForDeletedCustomer(
  command: CancelForDeletedCustomer,
  sub: ExistingSubscription,
): SubscriptionEvent[] {
  return sub.status === 'canceled' ? [] : [canceled(sub, command.now, command.now, 'customer_deleted')];
}

export function addCrossSaleCharge(command: AddCrossSaleCharge, sub: ExistingSubscription): SubscriptionEvent[] {
  // Listed already (the same purchase again): nothing recorded.
  if (sub.crossSaleCharges?.some((listed) => listed.chargeId === command.crossSaleCharge.chargeId)) return [];
  return [
    {
      type: 'SubscriptionCrossSaleChargeAdded',
      data: { subscriptionId: command.subscriptionId, crossSaleCharge: command.crossSaleCharge },
    },
  ];
}

export function canceled(
  sub: ExistingSubscription,
  canceledAt: number,
  endedAt: number,
  reason: Extract<SubscriptionEvent, { type: 'SubscriptionCanceled' }>['data']['reason'],
): SubscriptionEvent {
  return { type: 'SubscriptionCanceled', data: { subscriptionId: sub.subscriptionId, canceledAt, endedAt, reason } };
}
